/* The compute engine's timing-mode loop (docs/timing.md): one host thread
 * runs every SM, always stepping the SM whose clock is furthest behind (the
 * lowest-numbered of those that are level), so SMs advance together and
 * their requests reach the shared L2 and DRAM in near cycle order (which
 * keeps the run deterministic, too). A min-heap of the SMs' clocks finds
 * that SM in log(SMs) steps: a scan of 72 SMs at every step cost a fifth
 * of the host time of a 72-SM chip. The CWDU
 * places a workgroup on an SM when a slot is free at that SM's clock, one
 * every compute.workgroup_launch_cycles; the grid starts
 * compute.launch_latency cycles after the previous one ended. */
#include "compute/compute_timing.h"

#include <stdlib.h>

#include "compute/sm_timing.h"
#include "fault.h"
#include "timing/timing_progress.h"

static uint64_t workgroups_done(const struct ppu_compute_engine *ce)
{
   uint64_t n = 0;
   for (uint32_t s = 0; s < ce->sm_count; s++)
      n += atomic_load_explicit(&ce->sm[s].counters.value[PPU_COUNTER_COMPUTE_WORKGROUPS],
                                memory_order_relaxed);
   return n;
}

/* Places workgroups on sm while it has a free slot and the CWDU has work;
 * false once the CWDU has none left. */
static bool place_workgroups(struct ppu_compute_engine *ce, struct ppu_sm *sm)
{
   struct ppu_sm_timing *t = sm->timing;
   while (ppu_sm_has_free_slot(sm)) {
      /* A busy SM takes its next workgroup when the CWDU is done with the
       * last one; an idle SM waits for it anyway. */
      if (ppu_sm_busy(sm) && t->workgroup_ready > t->now)
         return true;
      struct ppu_grid *g;
      uint64_t index;
      if (!ppu_cwdu_take_workgroup(&ce->cwdu, sm->gpc, &g, &index))
         return false;
      ppu_sm_launch_workgroup(sm, index);
      uint64_t from = t->now > t->workgroup_ready ? t->now : t->workgroup_ready;
      t->workgroup_ready = from + ce->cfg.workgroup_launch_cycles;
      ppu_sm_timing_workgroup_launched(sm, t->workgroup_ready);
   }
   return true;
}

/* Whether SM a steps before SM b: the earlier clock, then the lower
 * number. */
static bool steps_first(const struct ppu_compute_engine *ce, uint32_t a, uint32_t b)
{
   uint64_t ta = ce->sm[a].timing->now, tb = ce->sm[b].timing->now;
   return ta < tb || (ta == tb && a < b);
}

/* Restores the heap order below heap[i] after its clock moved on. */
static void sift_down(const struct ppu_compute_engine *ce, uint32_t *heap, uint32_t n, uint32_t i)
{
   for (;;) {
      uint32_t first = i, l = 2 * i + 1, r = l + 1;
      if (l < n && steps_first(ce, heap[l], heap[first]))
         first = l;
      if (r < n && steps_first(ce, heap[r], heap[first]))
         first = r;
      if (first == i)
         return;
      uint32_t tmp = heap[i];
      heap[i] = heap[first];
      heap[first] = tmp;
      i = first;
   }
}

void ppu_compute_run_grid_timed(struct ppu_compute_engine *ce, struct ppu_grid *grid)
{
   uint64_t start = ce->chip_cycle + ce->cfg.launch_latency;
   uint32_t *heap = malloc(ce->sm_count * sizeof(*heap));
   for (uint32_t s = 0; s < ce->sm_count; s++) {
      if (!heap || !ppu_sm_timing_begin_grid(&ce->sm[s], start)) {
         struct ppu_fault f;
         ppu_fault_set(&f, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COMPUTE,
                       "out of host memory for SM %u's timing state", s);
         ppu_grid_report_fault(grid, &f);
         free(heap);
         return;
      }
      heap[s] = s; /* every clock is `start`: in number order, a heap */
   }
   uint64_t done_before = workgroups_done(ce);
   struct ppu_timing_progress progress;
   ppu_timing_progress_begin(&progress, ce->cfg.timing_progress, ++ce->timed_grids, start);
   bool cwdu_has_work = true;
   uint64_t end = start;
   uint32_t heap_size = ce->sm_count;
   while (!ppu_grid_aborted(grid) && heap_size) {
      struct ppu_sm *sm = &ce->sm[heap[0]];
      /* An SM without work and without a workgroup to come (the CWDU only
       * runs out) has nothing more to do in this grid. */
      if (!ppu_sm_busy(sm) && !(cwdu_has_work && ppu_sm_has_free_slot(sm))) {
         heap[0] = heap[--heap_size];
         sift_down(ce, heap, heap_size, 0);
         continue;
      }
      if (cwdu_has_work)
         cwdu_has_work = place_workgroups(ce, sm);
      if (ppu_sm_busy(sm))
         ppu_sm_step_timed(sm, grid);
      if (sm->timing->now > end)
         end = sm->timing->now;
      sift_down(ce, heap, heap_size, 0);
      if (ppu_timing_progress_due(&progress))
         ppu_timing_progress_print(&progress, end, workgroups_done(ce) - done_before,
                                   grid->workgroup_count);
   }
   free(heap);
   for (uint32_t s = 0; s < ce->sm_count; s++)
      ppu_sm_timing_end_grid(&ce->sm[s]);
   ppu_timing_progress_end(&progress, end);
   ppu_counter_add(ce->counters, PPU_COUNTER_TIMING_CHIP_CYCLES, end - ce->chip_cycle);
   ce->chip_cycle = end;
}
