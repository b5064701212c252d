#include "png_output.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>

static void colour(uint32_t n, uint32_t max, png_byte *rgb)
{
   if (n >= max) {
      rgb[0] = rgb[1] = rgb[2] = 0;
      return;
   }
   /* A smooth-ish blue-to-gold ramp over the escape count. */
   uint32_t t = (n * 255u) / (max ? max : 1);
   rgb[0] = (png_byte)(t < 128 ? t * 2 : 255);
   rgb[1] = (png_byte)(t < 128 ? t : 127 + (t - 128));
   rgb[2] = (png_byte)(t < 128 ? 128 + t : 255 - (t - 128) * 2);
}

bool png_write_counts(const char *path, const uint32_t *counts, uint32_t width, uint32_t height,
                      uint32_t max_iterations)
{
   FILE *f = fopen(path, "wb");
   if (!f) {
      perror(path);
      return false;
   }
   png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
   png_infop info = png ? png_create_info_struct(png) : NULL;
   png_byte *row = malloc((size_t)width * 3);
   volatile bool ok = false; /* read after a longjmp */
   if (!png || !info || !row) {
      fprintf(stderr, "compute_mandelbrot: out of memory writing %s\n", path);
      goto done;
   }
   /* libpng reports errors by longjmp. */
   if (setjmp(png_jmpbuf(png))) {
      fprintf(stderr, "compute_mandelbrot: libpng failed writing %s\n", path);
      goto done;
   }
   png_init_io(png, f);
   png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
   png_write_info(png, info);
   for (uint32_t y = 0; y < height; y++) {
      for (uint32_t x = 0; x < width; x++)
         colour(counts[(size_t)y * width + x], max_iterations, row + (size_t)x * 3);
      png_write_row(png, row);
   }
   png_write_end(png, NULL);
   ok = true;
done:
   png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
   free(row);
   if (fclose(f) != 0)
      ok = false;
   return ok;
}
