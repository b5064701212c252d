/* Order statistics over the samples of one measurement. */
#ifndef TRANSFER_BENCH_SAMPLE_STATS_H
#define TRANSFER_BENCH_SAMPLE_STATS_H

#include <stddef.h>

/* Both sort `samples` in place; `count` must be at least 1. */
double stats_median(double *samples, size_t count);
/* Nearest-rank percentile: the smallest sample that at least `percent` % of
 * the samples are less than or equal to. */
double stats_percentile(double *samples, size_t count, double percent);

#endif
