#include "png_write.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

struct png_write_error {
   const char *path;
   char message[256];
};

/* libpng's default prints and then longjmps; keep its text for our one
 * report instead. */
static void on_png_error(png_structp png, png_const_charp message)
{
   struct png_write_error *e = png_get_error_ptr(png);
   snprintf(e->message, sizeof(e->message), "%s", message);
   png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
   (void)png;
   (void)message; /* none matter for writing a plain 8-bit image */
}

/* color_type: PNG_COLOR_TYPE_GRAY (1 byte a pixel) or _RGBA (4). */
static bool write_png(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                      int color_type, uint32_t bytes_per_pixel)
{
   if (width == 0 || height == 0) {
      fprintf(stderr, "%s: cannot write an empty (%ux%u) image\n", path, width, height);
      return false;
   }
   FILE *f = fopen(path, "wb");
   if (!f) {
      perror(path);
      return false;
   }
   struct png_write_error e = {path, "out of memory"};
   png_structp png =
       png_create_write_struct(PNG_LIBPNG_VER_STRING, &e, on_png_error, on_png_warning);
   png_infop info = png ? png_create_info_struct(png) : NULL;
   volatile bool ok = false; /* read after a longjmp */
   if (!png || !info)
      goto done;
   if (setjmp(png_jmpbuf(png)))
      goto done;
   png_init_io(png, f);
   png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
   png_write_info(png, info);
   for (uint32_t y = 0; y < height; y++)
      png_write_row(png, pixels + (size_t)y * width * bytes_per_pixel);
   png_write_end(png, NULL);
   ok = true;
done:
   png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
   if (fclose(f) != 0 && ok) {
      snprintf(e.message, sizeof(e.message), "%s", strerror(errno));
      ok = false;
   }
   if (!ok)
      fprintf(stderr, "%s: writing PNG failed: %s\n", path, e.message);
   return ok;
}

bool png_gray_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height)
{
   return write_png(path, pixels, width, height, PNG_COLOR_TYPE_GRAY, 1);
}

bool png_rgba_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height)
{
   return write_png(path, pixels, width, height, PNG_COLOR_TYPE_RGBA, 4);
}
