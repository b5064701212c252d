/* The TTU instruction in the timing mode (docs/timing.md): the work each
 * lane's ray did (sm_ttu.c records it while the functional TTU runs) turned
 * into cycles.
 *
 * Rays take slots of the ray buffer (ttu.ray_queue_slots; a ray waits for a
 * free one) and run concurrently. One ray's walk is a chain: each node fetch
 * looks up the L0 (ttu.l0_latency); a miss goes to the L1 (merged with the
 * other rays of the instruction that missed the same line when
 * ttu.merge_node_requests, as the predictor notes' memory scheduler merges
 * same-node requests); the node's tests then pass the datapath
 * (ttu.datapath_stages) before the walk can go on; stack entries that
 * spilled go to local memory and come back through the L1. All rays' tests share
 * the SM's one datapath (ttu_datapath.h), whose throughput bounds the
 * instruction too. The instruction holds one of ttu.warps_in_flight slots
 * until it ends.
 *
 * With the intersection predictor (docs/predictor.md) the functional TTU
 * already walked each predicted ray from its predicted node (and, when that
 * found nothing, again from the root), so the walk booked here holds those
 * fetches; what is added is when: a ray that looks the table up waits for
 * a lookup port and the table's answer, a ray that teaches the table waits
 * for an update port before its slot frees, and with repacking a predicted
 * ray leaves its warp for the partial warp collector and runs in a
 * repacked warp (ttu_predictor_timing.h), which merges line requests among
 * its own rays and takes no TTU warp slot (an additional warp, admitted as
 * the ray buffer has room), so the original warp's slot frees when its
 * unpredicted rays are done. */
#include "compute/sm_timing.h"

#include "ppu/bvh.h"

static const enum ppu_counter latency_bucket[] = {
    PPU_COUNTER_TTU_RAY_LATENCY_LT_64,   PPU_COUNTER_TTU_RAY_LATENCY_LT_256,
    PPU_COUNTER_TTU_RAY_LATENCY_LT_1024, PPU_COUNTER_TTU_RAY_LATENCY_LT_4096,
    PPU_COUNTER_TTU_RAY_LATENCY_GE_4096,
};

static enum ppu_counter latency_counter(uint64_t cycles)
{
   unsigned b = 0;
   for (uint64_t limit = 64; b < 4 && cycles >= limit; limit *= 4)
      b++;
   return latency_bucket[b];
}

/* When the line a ray missed is back: another request of the same warp
 * for it when merging, else a new L1 request at cycle at. */
static uint64_t line_ready(struct ppu_sm *sm, struct ppu_ttu_merge_table *merge, uint64_t line,
                           uint64_t at)
{
   struct ppu_sm_timing *t = sm->timing;
   if (t->cfg->ttu_merge_node_requests) {
      bool found;
      uint64_t ready = ppu_ttu_merge_lookup(merge, line, at, &found);
      if (found) {
         ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_MERGED_REQUESTS, 1);
         return ready;
      }
   }
   ppu_counter_add(&sm->counters, PPU_COUNTER_L1_TTU_READS, 1);
   uint64_t ready = ppu_l1_read(&t->l1, at, line);
   ppu_ttu_merge_add(merge, line, at, ready);
   return ready;
}

/* Stack entries a ray spilled go to its slot's stack area in local memory
 * (8 bytes each: node and pending children) and come back before the walk
 * can use them: written through the L1, then read back. Returns when the
 * last is back. The area is tagged apart from global VAs like the LSU's
 * local memory (sm_timing.c). */
static uint64_t spill_traffic(struct ppu_sm *sm, uint32_t ray_slot, uint64_t spills, uint64_t at)
{
   struct ppu_sm_timing *t = sm->timing;
   uint64_t base = PPU_GENERIC_LOCAL_BASE + ((uint64_t)sm->id << 40) + (1ull << 39) +
                   (uint64_t)ray_slot * PPU_BVH_MAX_DEPTH * PPU_BVH_WIDTH * 8;
   uint64_t bytes = spills * 8, done = at;
   for (uint64_t off = 0; off < bytes; off += PPU_CACHE_LINE_BYTES) {
      uint64_t line = base + off % (PPU_BVH_MAX_DEPTH * PPU_BVH_WIDTH * 8);
      uint64_t written = ppu_l1_write(&t->l1, at, line);
      ppu_counter_add(&sm->counters, PPU_COUNTER_L1_TTU_READS, 1);
      uint64_t back = ppu_l1_read(&t->l1, written, line);
      done = back > done ? back : done;
   }
   return done;
}

static uint32_t earliest(const uint64_t *free_at, uint32_t n)
{
   uint32_t k = 0;
   for (uint32_t i = 1; i < n; i++)
      if (free_at[i] < free_at[k])
         k = i;
   return k;
}

/* One ray ready to walk at cycle `at`, its line requests merged within
 * `merge` (its warp's): takes a ray slot, walks as a chain, returns the
 * cycle it is done. */
static uint64_t book_ray(struct ppu_sm *sm, const struct ppu_ttu_lane_work *lw, uint64_t at,
                         struct ppu_ttu_merge_table *merge)
{
   struct ppu_sm_timing *t = sm->timing;
   const struct ppu_gpu_config *cfg = t->cfg;
   uint32_t slots = cfg->ttu_ray_queue_slots ? cfg->ttu_ray_queue_slots : 1;
   uint32_t k = earliest(t->ttu_ray_free_at, slots);
   at = at > t->ttu_ray_free_at[k] ? at : t->ttu_ray_free_at[k];
   uint64_t ray_start = at;
   at += lw->node_fetches * cfg->ttu_l0_latency;
   for (uint32_t m = 0; m < lw->misses.count; m++) {
      uint64_t ready = line_ready(sm, merge, lw->misses.line[m], at);
      at = ready > at ? ready : at;
   }
   at = spill_traffic(sm, k, lw->spills, at);
   at += ppu_ttu_datapath_issue_cycles(&t->datapath, lw->boxes, lw->triangles, lw->switches) +
         lw->node_fetches * t->datapath.stages;
   /* The hit's Go Up Level node goes into the table through an update
    * port; the ray's slot holds it until a port takes it. */
   if (t->predictor && lw->updated)
      at = ppu_ttu_ports_serve(&t->predictor->update, at) + 1;
   t->ttu_ray_free_at[k] = at;
   ppu_counter_add(&sm->counters, latency_counter(at - ray_start), 1);
   return at;
}

uint64_t ppu_sm_timing_ttu(struct ppu_sm *sm, uint64_t now, uint32_t exec)
{
   struct ppu_sm_timing *t = sm->timing;
   const struct ppu_gpu_config *cfg = t->cfg;
   struct ppu_ttu_predictor_timing *pt = t->predictor;
   struct ppu_ttu_merge_table merge = {.count = 0};
   uint64_t start = now + cfg->ttu_setup_latency, end = start, own_end = start;
   uint64_t boxes = 0, triangles = 0, switches = 0, timeouts = 0, repacked_warps = 0;
   bool any_repacked = false;
   for (unsigned l = 0; l < PPU_WARP_SIZE; l++) {
      if (!((exec >> l) & 1u))
         continue;
      const struct ppu_ttu_lane_work *lw = &t->ttu_lane[l];
      uint64_t at = start;
      bool repacked = false;
      if (pt && lw->looked_up) {
         at = ppu_ttu_ports_serve(&pt->lookup, start) + PPU_TTU_PREDICTOR_TABLE_LATENCY;
         if (lw->predicted && pt->repacking) {
            at = ppu_ttu_collector_add(pt, at, &timeouts, &repacked_warps);
            repacked = any_repacked = true;
         }
      }
      uint64_t done = book_ray(sm, lw, at, repacked ? &pt->merge : &merge);
      if (!repacked)
         own_end = done > own_end ? done : own_end;
      end = done > end ? done : end;
      boxes += lw->boxes;
      triangles += lw->triangles;
      switches += lw->switches;
   }
   if (pt) {
      ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_PREDICTOR_COLLECTOR_TIMEOUTS, timeouts);
      ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_PREDICTOR_REPACKED_WARPS, repacked_warps);
   }
   uint64_t busy;
   uint64_t datapath_end =
       ppu_ttu_datapath_run(&t->datapath, start, boxes, triangles, switches, &busy);
   ppu_counter_add(&sm->counters, PPU_COUNTER_TTU_DATAPATH_BUSY_CYCLES, busy);
   uint64_t done = datapath_end > end ? datapath_end : end;
   /* The warp's own slot: until its last ray and test without repacking;
    * with it, until the rays that stayed are done (the repacked ones run
    * in repacked warps, which take no slot). */
   uint32_t warps = cfg->ttu_warps_in_flight ? cfg->ttu_warps_in_flight : 1;
   t->ttu_warp_free_at[earliest(t->ttu_warp_free_at, warps)] = any_repacked ? own_end : done;
   return done;
}
