/* Writes escape counts as an RGB PNG (libpng). */
#ifndef PNG_OUTPUT_H
#define PNG_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

/* Colours count n of max_iterations (points inside the set are black).
 * Returns false with a message on stderr on failure. */
bool png_write_counts(const char *path, const uint32_t *counts, uint32_t width, uint32_t height,
                      uint32_t max_iterations);

#endif
