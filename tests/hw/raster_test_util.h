/* Helpers shared by the raster and ROP tests: a tiny deterministic RNG, the
 * raster pipeline of one triangle (setup -> coarse -> fine) into per-sample
 * counts, and a brute-force reference of the coverage rule written from
 * the spec's words (inside, or on a top or left edge) rather than from the
 * setup's edge functions. */
#ifndef RASTER_TEST_UTIL_H
#define RASTER_TEST_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "raster/raster_coarse.h"
#include "raster/raster_fine.h"
#include "raster/raster_setup.h"

static uint64_t rt_rng_state = 0x9e3779b97f4a7c15ull;
static inline uint32_t rt_rng(void)
{
   rt_rng_state ^= rt_rng_state << 13;
   rt_rng_state ^= rt_rng_state >> 7;
   rt_rng_state ^= rt_rng_state << 17;
   return (uint32_t)(rt_rng_state >> 16);
}
static inline double rt_uniform(double lo, double hi)
{
   return lo + (hi - lo) * (rt_rng() / 4294967296.0);
}

/* Standard sample locations, as the spec's table gives them. */
static inline void rt_sample_position(unsigned samples, unsigned s, double *x, double *y)
{
   static const double p4[4][2] = {{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};
   if (samples == 1) {
      *x = 0.5, *y = 0.5;
   } else {
      *x = p4[s][0], *y = p4[s][1];
   }
}

/* Reference: is the sample at fixed-point (sx, sy) covered by the triangle
 * with fixed-point vertices x[], y[] (any winding)? Inside all three edge
 * lines, where "on the line" counts only for top edges (horizontal, the
 * third vertex below, y down) and left edges (the third vertex to the
 * right of the line). */
static inline bool rt_reference_covered(const int64_t x[3], const int64_t y[3], int64_t sx,
                                        int64_t sy)
{
   for (unsigned i = 0; i < 3; i++) {
      unsigned j = (i + 1) % 3, k = (i + 2) % 3;
      /* Side of a point relative to the line P->Q: sign of the cross product. */
      int64_t side_s = (x[j] - x[i]) * (sy - y[i]) - (y[j] - y[i]) * (sx - x[i]);
      int64_t side_r = (x[j] - x[i]) * (y[k] - y[i]) - (y[j] - y[i]) * (x[k] - x[i]);
      if (side_r == 0)
         return false; /* degenerate */
      if (side_s == 0) {
         bool top, left = false;
         if (y[i] == y[j]) {
            top = y[k] > y[i];
         } else {
            top = false;
            /* x of the line at the third vertex's row, compared with the
             * third vertex: x_line = x_i + (y_k - y_i)(x_j - x_i)/(y_j - y_i). */
            int64_t num = (y[k] - y[i]) * (x[j] - x[i]);
            int64_t den = y[j] - y[i];
            int64_t lhs = (x[k] - x[i]) * den; /* (x_k - x_i) den vs num */
            left = den > 0 ? lhs > num : lhs < num;
         }
         if (!top && !left)
            return false;
      } else if ((side_s > 0) != (side_r > 0)) {
         return false;
      }
   }
   return true;
}

/* The same for a triangle and a sample position in window pixels (values
 * on the 1/256 grid, e.g. multiples of 1/8, so the conversion is exact). */
static inline bool rt_reference_covers_window(const double x[3], const double y[3], double sx,
                                              double sy)
{
   int64_t X[3], Y[3];
   for (unsigned k = 0; k < 3; k++) {
      X[k] = llround(x[k] * 256.0);
      Y[k] = llround(y[k] * 256.0);
   }
   return rt_reference_covered(X, Y, llround(sx * 256.0), llround(sy * 256.0));
}

/* Snaps like the hardware should (round to nearest 1/256); used by the
 * reference only through the vertices the setup returns, checked against
 * this independently. */
static inline int64_t rt_snap(double v)
{
   return (int64_t)nearbyint(v * 256.0);
}

struct rt_target {
   int32_t width, height;
   unsigned samples;
   uint8_t *count; /* [(y * width + x) * 4 + s] */
};

struct rt_walk_ctx {
   const struct raster_triangle *t;
   struct rt_target *target;
   unsigned samples_log2;
   unsigned quads, empty_quads, odd_quads;
};

static inline bool rt_visit_tile(void *p, int32_t tx, int32_t ty, enum raster_tile_class c)
{
   struct rt_walk_ctx *ctx = p;
   struct raster_quad q[RASTER_QUADS_PER_TILE];
   unsigned n = raster_fine_tile(ctx->t, tx, ty, ctx->samples_log2, 0xf, c == RASTER_TILE_FULL, q);
   for (unsigned i = 0; i < n; i++) {
      ctx->quads++;
      if (!q[i].coverage)
         ctx->empty_quads++;
      if ((q[i].x & 1) || (q[i].y & 1))
         ctx->odd_quads++;
      for (unsigned b = 0; b < 16; b++) {
         if (!(q[i].coverage & (1u << b)))
            continue;
         int32_t x = q[i].x + (int32_t)((b / 4) & 1u), y = q[i].y + (int32_t)((b / 4) >> 1);
         if (x >= 0 && y >= 0 && x < ctx->target->width && y < ctx->target->height)
            ctx->target->count[((size_t)y * ctx->target->width + x) * 4 + b % 4]++;
      }
   }
   return true;
}

/* Rasterizes t into target counts; returns the walk statistics. */
static inline struct rt_walk_ctx rt_rasterize(const struct raster_triangle *t,
                                              struct rt_target *target)
{
   struct rt_walk_ctx ctx = {t, target, target->samples == 4 ? 2u : 0u, 0, 0, 0};
   raster_coarse_walk(t, rt_visit_tile, &ctx);
   return ctx;
}

static inline struct raster_setup_state rt_default_setup(int32_t width, int32_t height)
{
   struct raster_setup_state s;
   memset(&s, 0, sizeof(s));
   s.clip.x1 = width;
   s.clip.y1 = height;
   return s;
}

#endif
