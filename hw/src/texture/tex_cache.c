/* See tex_cache.h. */
#include "texture/tex_cache.h"

#include <string.h>

void ppu_tex_cache_init(struct ppu_tex_cache *c, struct ppu_mmu_client *mmu,
                        struct ppu_counter_block *counters)
{
   memset(c, 0, sizeof(*c));
   c->mmu = mmu;
   c->counters = counters;
}

void ppu_tex_cache_flush(struct ppu_tex_cache *c)
{
   memset(c->set, 0, sizeof(c->set));
}

/* One tag lookup: a hit refreshes the way, a miss fills the least recently
 * used way of the set (empty ways have last_use 0, so they go first). */
static void lookup(struct ppu_tex_cache *c, uint64_t line)
{
   struct ppu_tex_cache_way *ways = c->set[line % PPU_TEX_CACHE_SETS];
   uint64_t tag = line * PPU_TEX_CACHE_LINE_BYTES + 1;
   unsigned victim = 0;
   c->clock++;
   for (unsigned w = 0; w < PPU_TEX_CACHE_WAYS; w++) {
      if (ways[w].tag == tag) {
         ways[w].last_use = c->clock;
         ppu_counter_add(c->counters, PPU_COUNTER_TEX_CACHE_HITS, 1);
         return;
      }
      if (ways[w].last_use < ways[victim].last_use)
         victim = w;
   }
   ways[victim].tag = tag;
   ways[victim].last_use = c->clock;
   ppu_counter_add(c->counters, PPU_COUNTER_TEX_CACHE_MISSES, 1);
   if (c->miss_log)
      ppu_line_log_add(c->miss_log, line * PPU_TEX_CACHE_LINE_BYTES);
}

bool ppu_tex_cache_read(struct ppu_tex_cache *c, uint64_t pd_pa, uint64_t va, void *dst,
                        uint32_t len, struct ppu_fault *fault)
{
   if (!ppu_mmu_read(c->mmu, pd_pa, va, dst, len, fault))
      return false;
   for (uint64_t line = va / PPU_TEX_CACHE_LINE_BYTES;
        line <= (va + len - 1) / PPU_TEX_CACHE_LINE_BYTES; line++)
      lookup(c, line);
   return true;
}
