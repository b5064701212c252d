/* 8-bit PNG files (libpng): grayscale and RGBA. */
#ifndef PNG_WRITE_H
#define PNG_WRITE_H

#include <stdbool.h>
#include <stdint.h>

/* Writes width x height bytes, rows top to bottom, as an 8-bit grayscale PNG.
 * Returns false, with a message on stderr, on failure. */
bool png_gray_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height);

/* The same for 4 bytes (R, G, B, A) a pixel, as an 8-bit RGBA PNG. */
bool png_rgba_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height);

#endif
