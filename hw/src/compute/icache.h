/* The SM's instruction cache (the multithreaded-sm seed's Instruction Cache
 * 410): direct-mapped lines of 8 instructions fetched from GPU memory through
 * the SM's MMU port, held decoded so an instruction is checked once per fill
 * rather than once per issue.
 *
 * A line is 128 bytes and 128-byte aligned, so it never straddles a page and
 * one translation fetches it. The cache is flushed at every grid launch (the
 * program memory may have been rewritten between grids).
 */
#ifndef PPU_COMPUTE_ICACHE_H
#define PPU_COMPUTE_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "mmu.h"
#include "ppu/isa.h"

#define PPU_ICACHE_LINE_INSNS 8u
#define PPU_ICACHE_LINE_BYTES (PPU_ICACHE_LINE_INSNS * PPU_INSN_BYTES)
/* The largest sm.icache_lines. The lines live in the SM (no allocation, so
 * SM setup cannot fail on them); 1024 lines of decoded instructions are
 * about 270 KB per SM, which bounds this. */
#define PPU_ICACHE_LINES_MAX 1024u

struct ppu_icache_insn {
   struct ppu_insn_fields f;
   const char *illegal; /* NULL when the encoding is legal for the grid */
};

struct ppu_icache_line {
   uint64_t va; /* line VA; valid when != 0 (VA page 0 is never mapped) */
   struct ppu_icache_insn insn[PPU_ICACHE_LINE_INSNS];
};

struct ppu_icache {
   struct ppu_icache_line line[PPU_ICACHE_LINES_MAX];
   uint32_t lines;          /* in use (sm.icache_lines): 1 .. PPU_ICACHE_LINES_MAX */
   uint32_t register_count; /* of the grid the lines were decoded for */
};

/* Sets the line count (the configuration checked it); the cache starts
 * empty. */
void ppu_icache_init(struct ppu_icache *ic, uint32_t lines);
void ppu_icache_flush(struct ppu_icache *ic, uint32_t register_count);

/* The decoded instruction at va (16-byte aligned), filling its line on a
 * miss; NULL with *fault filled in when the line cannot be fetched. */
const struct ppu_icache_insn *ppu_icache_fetch(struct ppu_icache *ic, struct ppu_mmu_client *mmu,
                                               struct ppu_counter_block *counters, uint64_t pd_pa,
                                               uint64_t va, struct ppu_fault *fault);

/* ppu_insn_check_operands (ppu/isa.h) is what a line fill checks. */

/* Whether the line holding va is in the cache (no fill, no count): the
 * timing mode's sequential prefetch looks at the line before a miss. */
bool ppu_icache_holds(const struct ppu_icache *ic, uint64_t va);

/* Widths (in registers) of rd, ra, rb/b and rc of a non-texture
 * instruction: what the checks above and the timing mode's scoreboard use. */
void ppu_insn_operand_widths(const struct ppu_insn_fields *f, unsigned w[4]);

#endif /* PPU_COMPUTE_ICACHE_H */
