/* See timing_progress.h. */
#include "timing/timing_progress.h"

#include <stdio.h>
#include <time.h>

#define NS_PER_S 1000000000ull
#define POLL_EVERY 512u

static uint64_t wall_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

void ppu_timing_progress_begin(struct ppu_timing_progress *p, bool enabled, uint64_t grid,
                               uint64_t start_cycle)
{
   p->enabled = enabled;
   p->grid = grid;
   p->start_ns = enabled ? wall_ns() : 0;
   p->last_print_ns = 0;
   p->start_cycle = start_cycle;
   p->polls = 0;
}

bool ppu_timing_progress_due(struct ppu_timing_progress *p)
{
   if (!p->enabled || ++p->polls < POLL_EVERY)
      return false;
   p->polls = 0;
   uint64_t now = wall_ns();
   uint64_t since = p->last_print_ns ? p->last_print_ns : p->start_ns;
   if (now - since < NS_PER_S)
      return false;
   p->last_print_ns = now;
   return true;
}

void ppu_timing_progress_print(struct ppu_timing_progress *p, uint64_t cycle,
                               uint64_t workgroups_done, uint64_t workgroups)
{
   uint64_t now = p->last_print_ns;
   double seconds = (double)(now - p->start_ns) / NS_PER_S;
   fprintf(stderr,
           "vkppu timing: grid %llu: %llu cycles simulated, %.1f%% of %llu workgroups, "
           "%.2f M cycles/s\n",
           (unsigned long long)p->grid, (unsigned long long)(cycle - p->start_cycle),
           workgroups ? 100.0 * (double)workgroups_done / (double)workgroups : 100.0,
           (unsigned long long)workgroups, (double)(cycle - p->start_cycle) / seconds / 1e6);
}

void ppu_timing_progress_end(struct ppu_timing_progress *p, uint64_t cycle)
{
   if (!p->enabled || !p->last_print_ns)
      return;
   fprintf(stderr, "vkppu timing: grid %llu: done, %llu cycles in %.1f s\n",
           (unsigned long long)p->grid, (unsigned long long)(cycle - p->start_cycle),
           (double)(wall_ns() - p->start_ns) / NS_PER_S);
}
