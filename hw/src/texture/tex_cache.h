/* The texture cache of one SM's texture unit (seed: the TFU reads texels
 * "from the texture cache"): 128-byte lines, PPU_TEX_CACHE_SETS sets of
 * PPU_TEX_CACHE_WAYS ways with LRU replacement, on the SM's MMU port.
 *
 * Functional mode keeps only the tags: every read goes to memory (so an
 * image a shader or the copy engine rewrote is never seen stale) and the
 * cache counts the hits and misses the reads would have had. In the timing
 * mode the SM sets miss_log and sends the misses on to its L1.
 */
#ifndef PPU_TEXTURE_TEX_CACHE_H
#define PPU_TEXTURE_TEX_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "mmu.h"
#include "timing/line_log.h"

#define PPU_TEX_CACHE_LINE_BYTES 128u
#define PPU_TEX_CACHE_SETS 32u
#define PPU_TEX_CACHE_WAYS 4u /* 16 KiB in all */

struct ppu_tex_cache_way {
   uint64_t tag; /* line VA + 1; 0 = empty */
   uint64_t last_use;
};

struct ppu_tex_cache {
   struct ppu_tex_cache_way set[PPU_TEX_CACHE_SETS][PPU_TEX_CACHE_WAYS];
   uint64_t clock;
   struct ppu_mmu_client *mmu;
   struct ppu_counter_block *counters; /* tex.cache_hits / tex.cache_misses */
   struct ppu_line_log *miss_log;      /* timing mode: lines missed; NULL otherwise */
};

void ppu_tex_cache_init(struct ppu_tex_cache *c, struct ppu_mmu_client *mmu,
                        struct ppu_counter_block *counters);
/* Drops every line (a new grid may run in another address space). */
void ppu_tex_cache_flush(struct ppu_tex_cache *c);
/* Reads len bytes (at most one line's worth; texels never straddle a line)
 * at va into dst, counting one lookup per line touched. False with *fault
 * filled in (an MMU fault naming the address). */
bool ppu_tex_cache_read(struct ppu_tex_cache *c, uint64_t pd_pa, uint64_t va, void *dst,
                        uint32_t len, struct ppu_fault *fault);

#endif
