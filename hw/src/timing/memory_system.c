/* See memory_system.h. */
#include "timing/memory_system.h"

#include <stdlib.h>
#include <string.h>

bool ppu_l2_init(struct ppu_l2 *l2, const struct ppu_gpu_config *cfg)
{
   memset(l2, 0, sizeof(*l2));
   l2->latency = cfg->l2_latency;
   ppu_dram_model_init(&l2->dram, cfg->dram_latency, cfg->dram_bytes_per_cycle);
   return ppu_cache_model_init(&l2->tags, cfg->l2_size, cfg->l2_ways);
}

void ppu_l2_finish(struct ppu_l2 *l2)
{
   ppu_cache_model_finish(&l2->tags);
}

uint64_t ppu_l2_access(struct ppu_l2 *l2, struct ppu_counter_block *counters, uint64_t now,
                       uint64_t addr, bool write)
{
   struct ppu_cache_lookup r = ppu_cache_model_access(&l2->tags, addr);
   uint64_t at_l2 = now + l2->latency;
   if (r.hit) {
      ppu_counter_add(counters, PPU_COUNTER_L2_HITS, 1);
      r.entry->dirty |= write;
      return at_l2 > r.ready_at ? at_l2 : r.ready_at;
   }
   ppu_counter_add(counters, PPU_COUNTER_L2_MISSES, 1);
   if (r.evicted_dirty) {
      ppu_dram_model_transfer(&l2->dram, at_l2, PPU_CACHE_LINE_BYTES);
      ppu_counter_add(counters, PPU_COUNTER_DRAM_BYTES_WRITTEN, PPU_CACHE_LINE_BYTES);
   }
   r.entry->dirty = write;
   if (write) { /* allocated without a fill: see memory_system.h */
      r.entry->ready_at = at_l2;
      return at_l2;
   }
   ppu_counter_add(counters, PPU_COUNTER_DRAM_BYTES_READ, PPU_CACHE_LINE_BYTES);
   r.entry->ready_at = ppu_dram_model_transfer(&l2->dram, at_l2, PPU_CACHE_LINE_BYTES);
   return r.entry->ready_at;
}

bool ppu_l1_init(struct ppu_l1 *l1, const struct ppu_gpu_config *cfg, struct ppu_l2 *l2,
                 struct ppu_counter_block *counters)
{
   memset(l1, 0, sizeof(*l1));
   l1->latency = cfg->l1_latency;
   l1->mshrs = cfg->l1_mshrs;
   l1->l2 = l2;
   l1->counters = counters;
   l1->mshr_free_at = calloc(l1->mshrs, sizeof(*l1->mshr_free_at));
   return l1->mshr_free_at && ppu_cache_model_init(&l1->tags, cfg->l1_size, cfg->l1_ways);
}

void ppu_l1_finish(struct ppu_l1 *l1)
{
   free(l1->mshr_free_at);
   ppu_cache_model_finish(&l1->tags);
}

uint64_t ppu_l1_read(struct ppu_l1 *l1, uint64_t now, uint64_t addr)
{
   struct ppu_cache_lookup r = ppu_cache_model_access(&l1->tags, addr);
   uint64_t hit_at = now + l1->latency;
   if (r.hit) {
      ppu_counter_add(l1->counters, PPU_COUNTER_L1_HITS, 1);
      return hit_at > r.ready_at ? hit_at : r.ready_at;
   }
   ppu_counter_add(l1->counters, PPU_COUNTER_L1_MISSES, 1);
   /* The MSHR that frees first; when none is free now the miss waits. */
   uint32_t m = 0;
   for (uint32_t i = 1; i < l1->mshrs; i++)
      if (l1->mshr_free_at[i] < l1->mshr_free_at[m])
         m = i;
   uint64_t start = now;
   if (l1->mshr_free_at[m] > now) {
      start = l1->mshr_free_at[m];
      ppu_counter_add(l1->counters, PPU_COUNTER_L1_MSHR_STALLS, 1);
   }
   uint64_t ready = ppu_l2_access(l1->l2, l1->counters, start, addr, false);
   l1->mshr_free_at[m] = ready;
   r.entry->ready_at = ready;
   return ready;
}

uint64_t ppu_l1_write(struct ppu_l1 *l1, uint64_t now, uint64_t addr)
{
   return ppu_l2_access(l1->l2, l1->counters, now, addr, true);
}
