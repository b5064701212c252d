/* The parts of vk_test_context.h that are not about Vulkan objects:
 * pseudo-random data and its comparison, time, and reporting. */
#include "vk_test_context.h"
#include "vk_sample.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------------------
 * Data, time, reporting
 * ------------------------------------------------------------------------- */
uint32_t vkt_rand_next(uint64_t *state)
{
   uint64_t x = *state;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   *state = x;
   return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

void vkt_fill_random(void *dst, size_t bytes, uint64_t seed)
{
   uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; /* never 0 */
   uint32_t *words = dst;
   for (size_t i = 0; i < bytes / 4; i++)
      words[i] = vkt_rand_next(&state);
   uint8_t *tail = (uint8_t *)dst + (bytes & ~(size_t)3);
   for (size_t i = 0; i < (bytes & 3); i++)
      tail[i] = (uint8_t)vkt_rand_next(&state);
}

size_t vkt_compare_words(const void *expected, const void *actual, size_t bytes, const char *what)
{
   if (memcmp(expected, actual, bytes) == 0)
      return 0;
   const uint32_t *e = expected, *a = actual;
   size_t words = bytes / 4, differing = 0;
   for (size_t i = 0; i < words; i++) {
      if (e[i] == a[i])
         continue;
      if (differing < 5)
         test_fail(__FILE__, __LINE__, "%s: byte offset 0x%zx: expected 0x%08x, got 0x%08x", what,
                   i * 4, e[i], a[i]);
      differing++;
   }
   if (memcmp((const uint8_t *)expected + words * 4, (const uint8_t *)actual + words * 4,
              bytes & 3) != 0) {
      test_fail(__FILE__, __LINE__, "%s: trailing bytes differ", what);
      differing++;
   }
   if (differing > 5)
      test_fail(__FILE__, __LINE__, "%s: %zu of %zu words differ", what, differing, words);
   return differing;
}

double vkt_seconds(void)
{
   return (double)vkt_monotonic_ns() * 1e-9;
}

uint64_t vkt_monotonic_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void vkt_sleep_ms(unsigned ms)
{
   struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
   while (nanosleep(&ts, &ts) != 0) {
   }
}

const char *vkt_result_name(VkResult result)
{
   return vk_sample_result_string(result);
}

void vkt_fatal_hang(const char *what)
{
   fprintf(stderr,
           "  %s did not finish within %llu s: the GPU hangs; objects in use cannot be "
           "freed, so the test program stops here\n",
           what, (unsigned long long)(VKT_WAIT_TIMEOUT_NS / 1000000000ull));
   printf("FAIL (hang) - stopping\n");
   fflush(stdout);
   exit(1);
}

void vkt_skip(const char *fmt, ...)
{
   va_list ap;
   fputs("  SKIP: ", stdout);
   va_start(ap, fmt);
   vprintf(fmt, ap);
   va_end(ap);
   fputc('\n', stdout);
}
