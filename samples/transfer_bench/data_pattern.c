#include "data_pattern.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

uint32_t pattern_word(uint32_t seed, uint32_t index)
{
   /* An integer hash (xorshift-multiply rounds). Every step is invertible, so
    * for one seed distinct indices give distinct words, and for one index
    * distinct seeds do. */
   uint32_t x = index * 0x9e3779b1u ^ seed;
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

void pattern_fill(void *dst, size_t size, uint32_t seed)
{
   uint8_t *bytes = dst;
   for (size_t i = 0; i < size / 4; i++) {
      uint32_t word = pattern_word(seed, (uint32_t)i);
      memcpy(bytes + 4 * i, &word, 4);
   }
}

static uint32_t load_word(const void *base, size_t index)
{
   uint32_t word;
   memcpy(&word, (const uint8_t *)base + 4 * index, 4);
   return word;
}

static void report_mismatch(const char *what, size_t first, uint32_t got, uint32_t expected,
                            size_t differing, size_t words)
{
   fprintf(stderr,
           "transfer_bench: DATA CHECK FAILED: %s: byte %zu holds 0x%08" PRIx32
           ", expected 0x%08" PRIx32 "; %zu of %zu words differ\n",
           what, 4 * first, got, expected, differing, words);
}

bool pattern_matches(const void *actual, const void *expected, size_t size, const char *what)
{
   /* memcmp first: it is the fast path every passing run takes. */
   if (memcmp(actual, expected, size) == 0)
      return true;
   size_t words = size / 4, differing = 0, first = 0;
   for (size_t i = 0; i < words; i++) {
      if (load_word(actual, i) != load_word(expected, i) && differing++ == 0)
         first = i;
   }
   report_mismatch(what, first, load_word(actual, first), load_word(expected, first), differing,
                   words);
   return false;
}

bool pattern_matches_word(const void *actual, size_t size, uint32_t word, const char *what)
{
   size_t words = size / 4, differing = 0, first = 0;
   for (size_t i = 0; i < words; i++) {
      if (load_word(actual, i) != word && differing++ == 0)
         first = i;
   }
   if (differing == 0)
      return true;
   report_mismatch(what, first, load_word(actual, first), word, differing, words);
   return false;
}
