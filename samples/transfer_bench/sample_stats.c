#include "sample_stats.h"

#include <math.h>
#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
   double x = *(const double *)a;
   double y = *(const double *)b;
   return (x > y) - (x < y);
}

double stats_median(double *samples, size_t count)
{
   qsort(samples, count, sizeof(*samples), compare_doubles);
   if (count % 2 == 1)
      return samples[count / 2];
   return 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
}

double stats_percentile(double *samples, size_t count, double percent)
{
   qsort(samples, count, sizeof(*samples), compare_doubles);
   size_t rank = (size_t)ceil(percent / 100.0 * (double)count);
   if (rank < 1)
      rank = 1;
   if (rank > count)
      rank = count;
   return samples[rank - 1];
}
