/* The data each benchmark moves, and the checks that it arrived intact. */
#ifndef TRANSFER_BENCH_DATA_PATTERN_H
#define TRANSFER_BENCH_DATA_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 32-bit word that depends on both its position and the seed, so data
 * copied to the wrong offset, left over from an earlier run or from another
 * benchmark never passes for the expected data. */
uint32_t pattern_word(uint32_t seed, uint32_t index);

/* Fills `size` bytes (a multiple of 4) with pattern_word(seed, 0), (seed, 1)... */
void pattern_fill(void *dst, size_t size, uint32_t seed);

/* True when the `size` bytes match; otherwise prints where they first differ
 * and how many words differ, naming the check `what`. */
bool pattern_matches(const void *actual, const void *expected, size_t size, const char *what);

/* Same, against `size` bytes that should all be copies of `word`. */
bool pattern_matches_word(const void *actual, size_t size, uint32_t word, const char *what);

#endif
