/* PTIMER on CLOCK_MONOTONIC. */
#include "timer.h"

#include <time.h>

static uint64_t monotonic_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ppu_timer_init(struct ppu_timer *t)
{
   t->start_ns = monotonic_ns();
}

uint64_t ppu_timer_read_ns(const struct ppu_timer *t)
{
   return monotonic_ns() - t->start_ns;
}
