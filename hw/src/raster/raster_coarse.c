/* Coarse raster: tile classification by the edge functions' extremes. */
#include "raster/raster_coarse.h"

#define TILE_FIXED ((int64_t)PPU_GFX_TILE_SIZE * RASTER_SUBPIXEL_ONE)

enum raster_tile_class raster_coarse_classify(const struct raster_triangle *t, int32_t tx,
                                              int32_t ty)
{
   int64_t x0 = (int64_t)tx * TILE_FIXED, y0 = (int64_t)ty * TILE_FIXED;
   int64_t x1 = x0 + TILE_FIXED, y1 = y0 + TILE_FIXED;
   bool full = true;
   for (unsigned e = 0; e < 3; e++) {
      int64_t a = t->edge_a[e], b = t->edge_b[e], c = t->edge_c[e] + t->edge_bias[e];
      /* A linear function over a rectangle peaks at a corner; every sample
       * lies strictly inside its pixel, so the closed tile bounds them. */
      int64_t hi = a * (a >= 0 ? x1 : x0) + b * (b >= 0 ? y1 : y0) + c;
      int64_t lo = a * (a >= 0 ? x0 : x1) + b * (b >= 0 ? y0 : y1) + c;
      if (hi < 0)
         return RASTER_TILE_OUTSIDE;
      full &= lo >= 0;
   }
   return full ? RASTER_TILE_FULL : RASTER_TILE_PARTIAL;
}

static int32_t floor_div_tile(int32_t v)
{
   return v >= 0 ? v / (int32_t)PPU_GFX_TILE_SIZE
                 : -((-v + (int32_t)PPU_GFX_TILE_SIZE - 1) / (int32_t)PPU_GFX_TILE_SIZE);
}

void raster_coarse_walk(const struct raster_triangle *t, raster_tile_visit visit, void *ctx)
{
   int32_t tx0 = floor_div_tile(t->bounds.x0), tx1 = floor_div_tile(t->bounds.x1 - 1);
   int32_t ty0 = floor_div_tile(t->bounds.y0), ty1 = floor_div_tile(t->bounds.y1 - 1);
   for (int32_t ty = ty0; ty <= ty1; ty++) {
      for (int32_t tx = tx0; tx <= tx1; tx++) {
         enum raster_tile_class c = raster_coarse_classify(t, tx, ty);
         if (c != RASTER_TILE_OUTSIDE && !visit(ctx, tx, ty, c))
            return;
      }
   }
}
