/* 8-bit grayscale PNG files (libpng). */
#ifndef PNG_GRAY_H
#define PNG_GRAY_H

#include <stdbool.h>
#include <stdint.h>

/* Writes width x height bytes, rows top to bottom, as an 8-bit grayscale PNG.
 * Returns false, with a message on stderr, on failure. */
bool png_gray_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height);

#endif
