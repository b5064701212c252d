#include "cpu_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_pattern.h"
#include "host_clock.h"
#include "sample_stats.h"

/* Called through volatile pointers so the compiler cannot prove the calls
 * are memcpy/memset and drop repetitions whose results are overwritten. */
static void *(*volatile copy_bytes)(void *, const void *, size_t) = memcpy;
static void *(*volatile set_bytes)(void *, int, size_t) = memset;

double cpu_reference_memcpy_seconds(size_t size, uint32_t runs)
{
   uint8_t *src = malloc(size);
   uint8_t *dst = malloc(size);
   double *samples = calloc(runs, sizeof(*samples));
   double median = -1.0;
   if (!src || !dst || !samples)
      goto out;
   /* Touch both buffers first so page faults are not timed; the device's
    * buffers are likewise allocated before their timed runs. */
   pattern_fill(src, size, 0x5eed0001u ^ (uint32_t)size);
   memset(dst, 0, size);
   for (uint32_t run = 0; run < runs; run++) {
      double start = host_clock_seconds();
      copy_bytes(dst, src, size);
      samples[run] = host_clock_seconds() - start;
   }
   if (pattern_matches(dst, src, size, "memcpy reference"))
      median = stats_median(samples, runs);
out:
   free(samples);
   free(dst);
   free(src);
   return median;
}

double cpu_reference_memset_seconds(size_t size, uint32_t runs)
{
   uint8_t *dst = malloc(size);
   double *samples = calloc(runs, sizeof(*samples));
   double median = -1.0;
   int value = 0;
   if (!dst || !samples)
      goto out;
   memset(dst, 0, size);
   for (uint32_t run = 0; run < runs; run++) {
      value = (int)(run + 1) & 0xff;
      double start = host_clock_seconds();
      set_bytes(dst, value, size);
      samples[run] = host_clock_seconds() - start;
   }
   if (pattern_matches_word(dst, size, 0x01010101u * (uint32_t)value, "memset reference"))
      median = stats_median(samples, runs);
out:
   free(samples);
   free(dst);
   return median;
}
