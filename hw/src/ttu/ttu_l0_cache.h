/* The TTU's L0 cache (beam-tracing seed: "the L0 cache unit may include
 * eight entries for cache lines having 128 bytes of data", coupled to the
 * MMU). Every BVH fetch of the TTU (headers, nodes, leaf records) goes
 * through it.
 *
 * Functional mode keeps only the tags: it counts hits and misses with an
 * LRU replacement over `lines` fully associative lines (ttu.l0_lines; the
 * arrays are sized for the largest the key allows) and reads
 * the data from memory every time, so a structure rewritten between grids
 * (or by a shader) is never seen stale. In the timing mode the SM sets
 * miss_log, and the misses go on to the L1 in its timing model.
 */
#ifndef PPU_TTU_L0_CACHE_H
#define PPU_TTU_L0_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "mmu.h"
#include "timing/line_log.h"

#define PPU_TTU_L0_LINE_BYTES 128u
/* The largest ttu.l0_lines: the lookup is a linear fully associative
 * search, so far beyond this a set-associative model would be needed. */
#define PPU_TTU_L0_LINES_MAX 64u

struct ppu_ttu_l0_cache {
   uint64_t
       line_va[PPU_TTU_L0_LINES_MAX]; /* VA of the line; 0 = empty (VA page 0 is never mapped) */
   uint64_t last_use[PPU_TTU_L0_LINES_MAX];
   uint64_t clock;
   uint32_t lines;                     /* lines in use, 1 .. PPU_TTU_L0_LINES_MAX */
   struct ppu_mmu_client *mmu;         /* the SM's port */
   struct ppu_counter_block *counters; /* ttu.l0_hits / ttu.l0_misses */
   struct ppu_line_log *miss_log;      /* timing mode: lines missed; NULL otherwise */
};

/* lines: 1 .. PPU_TTU_L0_LINES_MAX (the configuration checked it). */
void ppu_ttu_l0_init(struct ppu_ttu_l0_cache *c, struct ppu_mmu_client *mmu,
                     struct ppu_counter_block *counters, uint32_t lines);
/* Drops every line (a new grid may run in another address space). */
void ppu_ttu_l0_flush(struct ppu_ttu_l0_cache *c);

/* Reads len bytes at va in the address space pd_pa into dst, counting one
 * lookup per 128-byte line the range touches. False with *fault filled in
 * (an MMU fault naming the address) when memory cannot be read. */
bool ppu_ttu_l0_read(struct ppu_ttu_l0_cache *c, uint64_t pd_pa, uint64_t va, void *dst,
                     uint32_t len, struct ppu_fault *fault);

#endif /* PPU_TTU_L0_CACHE_H */
