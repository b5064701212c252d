/* png-compare: how far apart two PNG images are, for tests that run the
 * same program on two drivers (vkppu and lavapipe) whose rasterization and
 * floating-point rounding may differ in the last bit at edges.
 *
 *   png-compare A.png B.png [--max-mean M] [--threshold T] [--max-over F]
 *
 * Both images are read as 8-bit RGBA. Prints the mean absolute difference
 * over all channels (in 8-bit steps), the largest one, and the fraction of
 * pixels whose largest channel difference exceeds T (default 16). Exits 1
 * when the sizes differ, the mean exceeds M (default 1.0) or that fraction
 * exceeds F (default 0.01); 2 on a bad command line or unreadable file. */
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *read_rgba(const char *path, uint32_t *width, uint32_t *height)
{
   png_image img = {.version = PNG_IMAGE_VERSION};
   if (!png_image_begin_read_from_file(&img, path)) {
      fprintf(stderr, "png-compare: %s: %s\n", path, img.message);
      return NULL;
   }
   img.format = PNG_FORMAT_RGBA;
   uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
   if (!rgba || !png_image_finish_read(&img, NULL, rgba, 0, NULL)) {
      fprintf(stderr, "png-compare: %s: %s\n", path, rgba ? img.message : "out of memory");
      free(rgba);
      png_image_free(&img);
      return NULL;
   }
   *width = img.width;
   *height = img.height;
   return rgba;
}

static bool parse_double(const char *s, double *out)
{
   char *end;
   *out = strtod(s, &end);
   return *s && !*end && *out >= 0;
}

int main(int argc, char **argv)
{
   double max_mean = 1.0, threshold = 16, max_over = 0.01;
   if (argc < 3 || (argc - 3) % 2) {
      fprintf(stderr, "usage: png-compare A.png B.png [--max-mean M] [--threshold T] "
                      "[--max-over F]\n");
      return 2;
   }
   for (int i = 3; i < argc; i += 2) {
      double *dst = !strcmp(argv[i], "--max-mean")    ? &max_mean
                    : !strcmp(argv[i], "--threshold") ? &threshold
                    : !strcmp(argv[i], "--max-over")  ? &max_over
                                                      : NULL;
      if (!dst || !parse_double(argv[i + 1], dst)) {
         fprintf(stderr, "png-compare: bad option %s %s\n", argv[i], argv[i + 1]);
         return 2;
      }
   }
   uint32_t wa, ha, wb, hb;
   uint8_t *a = read_rgba(argv[1], &wa, &ha);
   uint8_t *b = a ? read_rgba(argv[2], &wb, &hb) : NULL;
   if (!a || !b) {
      free(a);
      return 2;
   }
   int status = 0;
   if (wa != wb || ha != hb) {
      printf("png-compare: sizes differ: %ux%u and %ux%u\n", wa, ha, wb, hb);
      status = 1;
   } else {
      uint64_t sum = 0, over = 0, pixels = (uint64_t)wa * ha;
      int largest = 0;
      for (uint64_t p = 0; p < pixels; p++) {
         int pixel_max = 0;
         for (int c = 0; c < 4; c++) {
            int d = abs((int)a[4 * p + c] - (int)b[4 * p + c]);
            sum += (uint64_t)d;
            pixel_max = d > pixel_max ? d : pixel_max;
         }
         largest = pixel_max > largest ? pixel_max : largest;
         over += pixel_max > threshold;
      }
      double mean = (double)sum / (double)(pixels * 4);
      double fraction = (double)over / (double)pixels;
      printf("png-compare: %ux%u: mean |difference| %.4f steps (max %.4f), largest %d; "
             "%.4f%% of pixels differ by more than %g (max %.4f%%)\n",
             wa, ha, mean, max_mean, largest, 100.0 * fraction, threshold, 100.0 * max_over);
      status = mean > max_mean || fraction > max_over;
   }
   free(a);
   free(b);
   return status;
}
