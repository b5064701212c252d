/* See memory_system.h. */
#include "timing/memory_system.h"

#include <string.h>

bool ppu_l2_init(struct ppu_l2 *l2, const struct ppu_gpu_config *cfg)
{
   memset(l2, 0, sizeof(*l2));
   l2->latency = cfg->l2_latency;
   return ppu_dram_model_init(&l2->dram, cfg->dram_latency, cfg->dram_bytes_per_cycle) &&
          ppu_cache_model_init(&l2->tags, cfg->l2_size, cfg->l2_ways);
}

void ppu_l2_finish(struct ppu_l2 *l2)
{
   ppu_dram_model_finish(&l2->dram);
   ppu_cache_model_finish(&l2->tags);
}

/* A line whose fill is in flight at the cycle a request reaches the cache:
 * a request made after the fill's own one waits for it (the MSHR merges
 * them); one made before it, which only reaches the model later because
 * requests are not booked in cycle order (cache_model.h), fetches the line
 * itself when that is sooner and becomes the line's fill. own_fill gives
 * that request's own fetch. */
static bool fill_booked_ahead(const struct ppu_cache_line_tag *line, uint64_t now, uint64_t data_at)
{
   return line->ready_at > data_at && now < line->requested_at;
}

/* ppu_l2_access; count is false for the refetch of a line whose access was
 * already counted (fill_booked_ahead in the L1). */
static uint64_t l2_access(struct ppu_l2 *l2, struct ppu_counter_block *counters, uint64_t now,
                          uint64_t addr, bool write, bool count)
{
   struct ppu_cache_lookup r = ppu_cache_model_access(&l2->tags, addr);
   uint64_t at_l2 = now + l2->latency;
   if (r.hit) {
      if (count)
         ppu_counter_add(counters, PPU_COUNTER_L2_HITS, 1);
      r.entry->dirty |= write;
      if (fill_booked_ahead(r.entry, now, at_l2)) {
         /* Its DRAM bytes were counted with the fill booked ahead. */
         uint64_t own =
             write ? at_l2 : ppu_dram_model_transfer(&l2->dram, at_l2, PPU_CACHE_LINE_BYTES);
         if (own < r.entry->ready_at)
            r.entry->ready_at = own;
         r.entry->requested_at = now;
      }
      return at_l2 > r.entry->ready_at ? at_l2 : r.entry->ready_at;
   }
   if (count)
      ppu_counter_add(counters, PPU_COUNTER_L2_MISSES, 1);
   if (r.evicted_dirty) {
      ppu_dram_model_transfer(&l2->dram, at_l2, PPU_CACHE_LINE_BYTES);
      ppu_counter_add(counters, PPU_COUNTER_DRAM_BYTES_WRITTEN, PPU_CACHE_LINE_BYTES);
   }
   r.entry->dirty = write;
   r.entry->requested_at = now;
   if (write) { /* allocated without a fill: see memory_system.h */
      r.entry->ready_at = at_l2;
      return at_l2;
   }
   ppu_counter_add(counters, PPU_COUNTER_DRAM_BYTES_READ, PPU_CACHE_LINE_BYTES);
   r.entry->ready_at = ppu_dram_model_transfer(&l2->dram, at_l2, PPU_CACHE_LINE_BYTES);
   return r.entry->ready_at;
}

uint64_t ppu_l2_access(struct ppu_l2 *l2, struct ppu_counter_block *counters, uint64_t now,
                       uint64_t addr, bool write)
{
   return l2_access(l2, counters, now, addr, write, true);
}

bool ppu_l1_init(struct ppu_l1 *l1, const struct ppu_gpu_config *cfg, struct ppu_l2 *l2,
                 struct ppu_counter_block *counters)
{
   memset(l1, 0, sizeof(*l1));
   l1->latency = cfg->l1_latency;
   l1->l2 = l2;
   l1->counters = counters;
   return ppu_mshr_calendar_init(&l1->mshrs, cfg->l1_mshrs) &&
          ppu_cache_model_init(&l1->tags, cfg->l1_size, cfg->l1_ways);
}

void ppu_l1_finish(struct ppu_l1 *l1)
{
   ppu_mshr_calendar_finish(&l1->mshrs);
   ppu_cache_model_finish(&l1->tags);
}

/* A miss leaving the L1 at cycle now: takes an MSHR (waiting for one when
 * none is free) and asks the L2. Returns when the line is back. */
static uint64_t l1_fetch(struct ppu_l1 *l1, uint64_t now, uint64_t addr, bool count)
{
   uint64_t start = ppu_mshr_calendar_first_free(&l1->mshrs, now);
   if (start > now)
      ppu_counter_add(l1->counters, PPU_COUNTER_L1_MSHR_STALLS, 1);
   uint64_t ready = l2_access(l1->l2, l1->counters, start, addr, false, count);
   ppu_mshr_calendar_hold(&l1->mshrs, start, ready);
   return ready;
}

uint64_t ppu_l1_read(struct ppu_l1 *l1, uint64_t now, uint64_t addr)
{
   struct ppu_cache_lookup r = ppu_cache_model_access(&l1->tags, addr);
   uint64_t hit_at = now + l1->latency;
   if (r.hit) {
      ppu_counter_add(l1->counters, PPU_COUNTER_L1_HITS, 1);
      if (fill_booked_ahead(r.entry, now, hit_at)) {
         uint64_t own = l1_fetch(l1, now, addr, false);
         if (own < r.entry->ready_at)
            r.entry->ready_at = own;
         r.entry->requested_at = now;
      }
      return hit_at > r.entry->ready_at ? hit_at : r.entry->ready_at;
   }
   ppu_counter_add(l1->counters, PPU_COUNTER_L1_MISSES, 1);
   r.entry->requested_at = now;
   r.entry->ready_at = l1_fetch(l1, now, addr, true);
   return r.entry->ready_at;
}

uint64_t ppu_l1_write(struct ppu_l1 *l1, uint64_t now, uint64_t addr)
{
   return ppu_l2_access(l1->l2, l1->counters, now, addr, true);
}
