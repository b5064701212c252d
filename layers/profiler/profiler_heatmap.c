/* heatmap_<frame>.png: the frame's ray cost map (BVH nodes fetched per
 * invocation, summed over the frame's dispatches) through a color ramp,
 * 0 black, then blue, cyan, green, yellow, red, to white at the frame's
 * maximum, which counters.json notes (a linear scale, so two frames'
 * colors compare only through their maxima). Row 0 is the top, as
 * gl_GlobalInvocationID.y = 0 is an image's first row. */
#include <stdlib.h>

#include "png_write.h"
#include "profiler.h"

static void ramp(double t, uint8_t *rgba)
{
   static const uint8_t stops[][3] = {{0, 0, 0},     {0, 0, 255}, {0, 255, 255},  {0, 255, 0},
                                      {255, 255, 0}, {255, 0, 0}, {255, 255, 255}};
   const int last = (int)(sizeof(stops) / sizeof(stops[0])) - 1;
   double x = t * last;
   int i = x >= last ? last - 1 : (int)x;
   double u = x - i;
   for (int c = 0; c < 3; c++)
      rgba[c] = (uint8_t)(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * u + 0.5);
   rgba[3] = 255;
}

bool prof_write_heatmap(const struct prof_device *d, struct prof_frame *f, uint32_t frame_index,
                        const struct prof_cost_map *map, struct prof_extent crop)
{
   uint32_t w = crop.width ? crop.width : map->width;
   uint32_t h = crop.height ? crop.height : map->height;
   uint64_t max = 0, sum = 0;
   for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w; x++) {
         uint32_t v = map->nodes[(size_t)y * map->width + x];
         sum += v;
         max = v > max ? v : max;
      }
   if (!max)
      return true; /* no ray in the frame's picture: no map */
   uint8_t *rgba = malloc((size_t)w * h * 4);
   if (!rgba)
      return false;
   for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w; x++)
         ramp((double)map->nodes[(size_t)y * map->width + x] / (double)max,
              rgba + ((size_t)y * w + x) * 4);
   snprintf(f->heat_file, sizeof(f->heat_file), "heatmap_%u.png", frame_index);
   char path[4200];
   snprintf(path, sizeof(path), "%s/%s", d->dir, f->heat_file);
   bool ok = png_rgba_write(path, rgba, w, h);
   free(rgba);
   if (ok) {
      f->heat_width = w;
      f->heat_height = h;
      f->heat_max = max;
      f->heat_sum = sum;
   }
   return ok;
}
