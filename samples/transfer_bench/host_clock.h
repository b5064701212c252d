/* The one host clock every host-side figure of transfer_bench is read from. */
#ifndef TRANSFER_BENCH_HOST_CLOCK_H
#define TRANSFER_BENCH_HOST_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC, because wall-clock adjustments (NTP) must not land inside a
 * measured interval. */
static inline double host_clock_seconds(void)
{
   struct timespec now;
   clock_gettime(CLOCK_MONOTONIC, &now);
   return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

#endif
