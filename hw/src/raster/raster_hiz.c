/* Hierarchical Z: per-tile depth ranges and the conservative cull test. */
#include "raster/raster_hiz.h"

#include <math.h>
#include <stdlib.h>

bool raster_hiz_init(struct raster_hiz *h, uint32_t width, uint32_t height)
{
   h->tiles_x = (width + PPU_GFX_TILE_SIZE - 1) / PPU_GFX_TILE_SIZE;
   h->tiles_y = (height + PPU_GFX_TILE_SIZE - 1) / PPU_GFX_TILE_SIZE;
   size_t n = (size_t)h->tiles_x * h->tiles_y;
   h->zmin = malloc(n * sizeof(float));
   h->zmax = malloc(n * sizeof(float));
   if (!h->zmin || !h->zmax) {
      raster_hiz_free(h);
      return false;
   }
   raster_hiz_reset(h);
   return true;
}

void raster_hiz_free(struct raster_hiz *h)
{
   free(h->zmin);
   free(h->zmax);
   h->zmin = h->zmax = NULL;
}

void raster_hiz_reset(struct raster_hiz *h)
{
   size_t n = (size_t)h->tiles_x * h->tiles_y;
   for (size_t i = 0; i < n; i++) {
      h->zmin[i] = -INFINITY;
      h->zmax[i] = INFINITY;
   }
}

void raster_hiz_clear(struct raster_hiz *h, float depth)
{
   size_t n = (size_t)h->tiles_x * h->tiles_y;
   for (size_t i = 0; i < n; i++)
      h->zmin[i] = h->zmax[i] = depth;
}

static bool tile_index(const struct raster_hiz *h, int32_t tx, int32_t ty, size_t *i)
{
   if (tx < 0 || ty < 0 || (uint32_t)tx >= h->tiles_x || (uint32_t)ty >= h->tiles_y)
      return false;
   *i = (size_t)ty * h->tiles_x + (size_t)tx;
   return true;
}

void raster_hiz_set(struct raster_hiz *h, int32_t tx, int32_t ty, float zmin, float zmax)
{
   size_t i;
   if (tile_index(h, tx, ty, &i)) {
      h->zmin[i] = zmin;
      h->zmax[i] = zmax;
   }
}

void raster_hiz_widen(struct raster_hiz *h, int32_t tx, int32_t ty, float zmin, float zmax)
{
   size_t i;
   if (tile_index(h, tx, ty, &i)) {
      h->zmin[i] = fminf(h->zmin[i], zmin);
      h->zmax[i] = fmaxf(h->zmax[i], zmax);
   }
}

void raster_hiz_triangle_range(const struct raster_triangle *t, int32_t tx, int32_t ty, float *lo,
                               float *hi)
{
   /* The plane over the part of the tile inside the bounds, at its corners,
    * evaluated exactly (double) from the float coefficients the samples use
    * and widened by the rounding of the samples' multiply-adds (at most four
    * roundings of 2^-24 of the terms' magnitude). */
   double x0 = fmax((double)tx * PPU_GFX_TILE_SIZE, t->bounds.x0) - t->origin_x;
   double x1 = fmin((double)(tx + 1) * PPU_GFX_TILE_SIZE, t->bounds.x1) - t->origin_x;
   double y0 = fmax((double)ty * PPU_GFX_TILE_SIZE, t->bounds.y0) - t->origin_y;
   double y1 = fmin((double)(ty + 1) * PPU_GFX_TILE_SIZE, t->bounds.y1) - t->origin_y;
   double a = t->z_a, b = t->z_b, c = t->z_c;
   double p_lo = (a >= 0 ? a * x0 : a * x1) + (b >= 0 ? b * y0 : b * y1) + c;
   double p_hi = (a >= 0 ? a * x1 : a * x0) + (b >= 0 ? b * y1 : b * y0) + c;
   double eps = ldexp(
       fabs(a) * fmax(fabs(x0), fabs(x1)) + fabs(b) * fmax(fabs(y0), fabs(y1)) + fabs(c), -21);
   /* The same monotonic steps as raster_sample_depth, on the endpoints. */
   float l = fminf(fmaxf((float)(p_lo - eps), t->z_min), t->z_max) + t->depth_bias;
   float h = fminf(fmaxf((float)(p_hi + eps), t->z_min), t->z_max) + t->depth_bias;
   if (t->depth_clamp) {
      l = fminf(fmaxf(l, t->clamp_min), t->clamp_max);
      h = fminf(fmaxf(h, t->clamp_min), t->clamp_max);
   }
   *lo = l;
   *hi = h;
}

bool raster_hiz_may_pass(const struct raster_hiz *h, const struct raster_hiz_format *f, int32_t tx,
                         int32_t ty, unsigned op, float lo, float hi)
{
   size_t i;
   if (!tile_index(h, tx, ty, &i))
      return true;
   if (f->unorm) {
      /* ZROP clamps to [0, 1] and rounds to the nearest code. */
      lo = fminf(fmaxf(lo, 0.0f), 1.0f) - f->quantum;
      hi = fminf(fmaxf(hi, 0.0f), 1.0f) + f->quantum;
   }
   float smin = h->zmin[i], smax = h->zmax[i];
   switch (op) {
   case PPU_GFX_COMPARE_NEVER:
      return false;
   case PPU_GFX_COMPARE_LESS:
      return lo < smax;
   case PPU_GFX_COMPARE_EQUAL:
      return lo <= smax && hi >= smin;
   case PPU_GFX_COMPARE_LESS_OR_EQUAL:
      return lo <= smax;
   case PPU_GFX_COMPARE_GREATER:
      return hi > smin;
   case PPU_GFX_COMPARE_NOT_EQUAL:
      return !(lo == hi && smin == smax && lo == smin);
   case PPU_GFX_COMPARE_GREATER_OR_EQUAL:
      return hi >= smin;
   default:
      return true;
   }
}
