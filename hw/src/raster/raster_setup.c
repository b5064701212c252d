/* Setup engine: snapping, facing and culling, edge functions with the
 * top-left rule, bounds, the depth plane and depth bias. */
#include "raster/raster_setup.h"

#include <math.h>

static int64_t floor_div(int64_t a, int64_t b)
{
   int64_t q = a / b;
   return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Vulkan "Depth Bias": o = m * slope + r * constant, m the maximum depth
 * slope (the spec allows max(|dz/dx|, |dz/dy|) for the exact length), r the
 * minimum resolvable difference: 2^-n for an n-bit UNORM depth format,
 * 2^(e - 23) for float depth with e the largest exponent of the primitive's
 * depths. A non-zero clamp bounds o from above (> 0) or below (< 0). */
static float depth_bias(const struct raster_depth_state *d, float z_a, float z_b, const float z[3])
{
   if (!d->bias_enable)
      return 0.0f;
   double m = fmax(fabs(z_a), fabs(z_b));
   double r;
   if (d->unorm_bits) {
      r = ldexp(1.0, -(int)d->unorm_bits);
   } else {
      float max_abs = fmaxf(fabsf(z[0]), fmaxf(fabsf(z[1]), fabsf(z[2])));
      int e = -126 + 1;
      if (max_abs > 0.0f)
         frexpf(max_abs, &e);
      r = ldexp(1.0, (e - 1) - 23);
   }
   double o = m * d->bias_slope + r * d->bias_constant;
   if (d->bias_clamp > 0.0f)
      o = fmin(o, d->bias_clamp);
   else if (d->bias_clamp < 0.0f)
      o = fmax(o, d->bias_clamp);
   return (float)o;
}

/* Snaps the window positions to the fixed-point grid; false when one is
 * beyond the guard band or not a number (the negated test refuses NaN). */
static bool snap_vertices(const struct raster_window_vertex v[3], int64_t x[3], int64_t y[3])
{
   const double limit = (double)PPU_GFX_GUARD_BAND * RASTER_SUBPIXEL_ONE;
   for (unsigned i = 0; i < 3; i++) {
      double fx = nearbyint(v[i].x * RASTER_SUBPIXEL_ONE);
      double fy = nearbyint(v[i].y * RASTER_SUBPIXEL_ONE);
      if (!(fabs(fx) < limit && fabs(fy) < limit))
         return false;
      x[i] = (int64_t)fx;
      y[i] = (int64_t)fy;
   }
   return true;
}

/* Twice the signed area of the snapped triangle: -2a of the spec's a. */
static int64_t area2_of(const int64_t x[3], const int64_t y[3])
{
   return (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
}

static bool facing_culls(const struct raster_setup_state *s, int64_t area2, bool *front)
{
   *front = s->front_face == PPU_GFX_FRONT_FACE_POSITIVE_AREA ? area2 < 0 : area2 > 0;
   return area2 == 0 || (*front && (s->cull & PPU_GFX_CULL_FRONT)) ||
          (!*front && (s->cull & PPU_GFX_CULL_BACK));
}

bool raster_setup_culls(const struct raster_setup_state *s, const struct raster_window_vertex v[3],
                        bool *front_facing)
{
   int64_t x[3], y[3];
   if (!snap_vertices(v, x, y))
      return true;
   return facing_culls(s, area2_of(x, y), front_facing);
}

bool raster_setup_triangle(const struct raster_setup_state *s,
                           const struct raster_window_vertex v[3], struct raster_triangle *t)
{
   int64_t x[3], y[3];
   /* A depth that is not finite would give NaN planes: nothing of such a
    * primitive is defined, so none of it is drawn. */
   if (!isfinite(v[0].z) || !isfinite(v[1].z) || !isfinite(v[2].z) || !snap_vertices(v, x, y))
      return false;
   int64_t area2 = area2_of(x, y);
   if (facing_culls(s, area2, &t->front_facing))
      return false;
   t->point_x = t->point_y = 0.0;
   t->point_size = 0.0f;
   uint8_t order[3] = {0, 1, 2};
   if (area2 < 0)
      order[1] = 2, order[2] = 1;
   for (unsigned i = 0; i < 3; i++) {
      t->source[i] = order[i];
      t->x[i] = x[order[i]];
      t->y[i] = y[order[i]];
   }
   for (unsigned i = 0; i < 3; i++) {
      unsigned j = (i + 1) % 3;
      int64_t dx = t->x[j] - t->x[i], dy = t->y[j] - t->y[i];
      t->edge_a[i] = -dy;
      t->edge_b[i] = dx;
      t->edge_c[i] = dy * t->x[i] - dx * t->y[i];
      /* With the interior on the positive side and y down: a top edge runs
       * in +x, a left edge runs upward (dy < 0). */
      bool top_left = dy < 0 || (dy == 0 && dx > 0);
      t->edge_bias[i] = top_left ? 0 : -1;
   }
   int64_t min_x = t->x[0], max_x = t->x[0], min_y = t->y[0], max_y = t->y[0];
   for (unsigned i = 1; i < 3; i++) {
      min_x = t->x[i] < min_x ? t->x[i] : min_x;
      max_x = t->x[i] > max_x ? t->x[i] : max_x;
      min_y = t->y[i] < min_y ? t->y[i] : min_y;
      max_y = t->y[i] > max_y ? t->y[i] : max_y;
   }
   struct raster_rect b = {
       (int32_t)floor_div(min_x, RASTER_SUBPIXEL_ONE),
       (int32_t)floor_div(min_y, RASTER_SUBPIXEL_ONE),
       (int32_t)floor_div(max_x, RASTER_SUBPIXEL_ONE) + 1,
       (int32_t)floor_div(max_y, RASTER_SUBPIXEL_ONE) + 1,
   };
   b.x0 = b.x0 > s->clip.x0 ? b.x0 : s->clip.x0;
   b.y0 = b.y0 > s->clip.y0 ? b.y0 : s->clip.y0;
   b.x1 = b.x1 < s->clip.x1 ? b.x1 : s->clip.x1;
   b.y1 = b.y1 < s->clip.y1 ? b.y1 : s->clip.y1;
   if (b.x0 >= b.x1 || b.y0 >= b.y1)
      return false;
   t->bounds = b;

   t->origin_x = (int32_t)floor_div(t->x[0], RASTER_SUBPIXEL_ONE);
   t->origin_y = (int32_t)floor_div(t->y[0], RASTER_SUBPIXEL_ONE);
   float z[3] = {v[0].z, v[1].z, v[2].z};
   struct ppu_gfx_plane zp = raster_setup_plane(t, z);
   t->z_a = zp.a, t->z_b = zp.b, t->z_c = zp.c;
   t->z_min = fminf(z[0], fminf(z[1], z[2]));
   t->z_max = fmaxf(z[0], fmaxf(z[1], z[2]));
   t->depth_bias = depth_bias(&s->depth, zp.a, zp.b, z);
   t->depth_clamp = s->depth.clamp_enable;
   t->clamp_min = fminf(s->depth.clamp_min, s->depth.clamp_max);
   t->clamp_max = fmaxf(s->depth.clamp_min, s->depth.clamp_max);
   return true;
}

struct ppu_gfx_plane raster_setup_plane(const struct raster_triangle *t, const float value[3])
{
   /* Solve in double over the snapped positions relative to the origin. */
   double px[3], py[3], f[3];
   for (unsigned i = 0; i < 3; i++) {
      px[i] = (double)(t->x[i] - (int64_t)t->origin_x * RASTER_SUBPIXEL_ONE) / RASTER_SUBPIXEL_ONE;
      py[i] = (double)(t->y[i] - (int64_t)t->origin_y * RASTER_SUBPIXEL_ONE) / RASTER_SUBPIXEL_ONE;
      f[i] = value[t->source[i]];
   }
   double e1x = px[1] - px[0], e1y = py[1] - py[0];
   double e2x = px[2] - px[0], e2y = py[2] - py[0];
   double det = e1x * e2y - e2x * e1y;
   double d1 = f[1] - f[0], d2 = f[2] - f[0];
   double a = (d1 * e2y - d2 * e1y) / det;
   double b = (d2 * e1x - d1 * e2x) / det;
   double c = f[0] - a * px[0] - b * py[0];
   struct ppu_gfx_plane p = {(float)a, (float)b, (float)c};
   return p;
}

float raster_sample_depth(const struct raster_triangle *t, int64_t sx, int64_t sy)
{
   int64_t px = sx >> PPU_GFX_SUBPIXEL_BITS, py = sy >> PPU_GFX_SUBPIXEL_BITS;
   return raster_depth_from_plane(
       t, raster_sample_offset(px, t->origin_x, (unsigned)(sx & (RASTER_SUBPIXEL_ONE - 1))),
       raster_sample_offset(py, t->origin_y, (unsigned)(sy & (RASTER_SUBPIXEL_ONE - 1))));
}
