/* Clipping engine: Sutherland-Hodgman against the guard band, near/far and
 * the clip distances (see raster_clip.h for what is clipped and why). */
#include "raster/raster_clip.h"

#include <math.h>
#include <string.h>

/* Clip to 3/4 of the guard band: a vertex computed on a guard plane in float
 * lands within a few ulps of it, far inside what setup accepts. */
#define GUARD_CLIP_PIXELS (0.75 * PPU_GFX_GUARD_BAND)

static void ndc_bounds(float scale, float offset, float *lo, float *hi)
{
   double a = (-GUARD_CLIP_PIXELS - offset) / scale;
   double b = (GUARD_CLIP_PIXELS - offset) / scale;
   *lo = (float)fmin(a, b);
   *hi = (float)fmax(a, b);
}

void raster_clip_state_init(struct raster_clip_state *s, float scale_x, float offset_x,
                            float scale_y, float offset_y, bool depth_clamp,
                            uint32_t clip_distance_mask)
{
   /* A zero scale (empty viewport) maps everything to one column: any NDC
    * position is inside the guard band. */
   if (scale_x == 0.0f) {
      s->x_lo = -INFINITY, s->x_hi = INFINITY;
   } else {
      ndc_bounds(scale_x, offset_x, &s->x_lo, &s->x_hi);
   }
   if (scale_y == 0.0f) {
      s->y_lo = -INFINITY, s->y_hi = INFINITY;
   } else {
      ndc_bounds(scale_y, offset_y, &s->y_lo, &s->y_hi);
   }
   s->depth_clamp = depth_clamp;
   s->clip_distance_mask = clip_distance_mask & ((1u << PPU_GFX_MAX_CLIP_DISTANCES) - 1u);
   s->cull_distance_mask = 0;
}

/* Signed distance of a vertex to plane p (>= 0 inside). Planes 0..3 guard
 * band, 4 near, 5 far, 6.. clip distances (interpolated like attributes). */
static float plane_distance(const struct raster_clip_state *s, unsigned p,
                            const struct raster_clip_vertex *v, const float dist[3][8])
{
   const float *c = v->position;
   switch (p) {
   case 0:
      return c[0] - s->x_lo * c[3];
   case 1:
      return s->x_hi * c[3] - c[0];
   case 2:
      return c[1] - s->y_lo * c[3];
   case 3:
      return s->y_hi * c[3] - c[1];
   case 4:
      return c[2];
   case 5:
      return c[3] - c[2];
   default: {
      unsigned i = p - 6;
      return v->bary[0] * dist[0][i] + v->bary[1] * dist[1][i] + v->bary[2] * dist[2][i];
   }
   }
}

static bool plane_active(const struct raster_clip_state *s, unsigned p)
{
   if (p == 4 || p == 5)
      return !s->depth_clamp;
   if (p >= 6)
      return (s->clip_distance_mask >> (p - 6)) & 1u;
   return true;
}

static struct raster_clip_vertex lerp_vertex(const struct raster_clip_vertex *in, float d_in,
                                             const struct raster_clip_vertex *out, float d_out)
{
   /* From the inside vertex towards the outside one, whatever the edge's
    * direction in the polygon, so shared edges clip identically. */
   float t = d_in / (d_in - d_out);
   struct raster_clip_vertex r;
   for (unsigned k = 0; k < 4; k++)
      r.position[k] = in->position[k] + t * (out->position[k] - in->position[k]);
   for (unsigned k = 0; k < 3; k++)
      r.bary[k] = in->bary[k] + t * (out->bary[k] - in->bary[k]);
   return r;
}

unsigned raster_clip_triangle(const struct raster_clip_state *s, const float position[3][4],
                              const float (*clip_distance)[PPU_GFX_MAX_CLIP_DISTANCES],
                              struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES])
{
   float dist[3][8] = {{0}};
   if (clip_distance)
      memcpy(dist, clip_distance, sizeof(dist));
   struct raster_clip_vertex buf[2][RASTER_CLIP_MAX_VERTICES];
   for (unsigned v = 0; v < 3; v++) {
      memcpy(buf[0][v].position, position[v], sizeof(buf[0][v].position));
      for (unsigned k = 0; k < 3; k++)
         buf[0][v].bary[k] = k == v ? 1.0f : 0.0f;
   }
   unsigned n = 3, cur = 0;
   for (unsigned p = 0; p < RASTER_CLIP_MAX_PLANES && n > 0; p++) {
      if (!plane_active(s, p))
         continue;
      float d[RASTER_CLIP_MAX_VERTICES];
      bool any_out = false, all_out = true;
      for (unsigned i = 0; i < n; i++) {
         d[i] = plane_distance(s, p, &buf[cur][i], dist);
         /* NaN positions count as outside: nothing of them is drawn. */
         bool inside = d[i] >= 0.0f;
         any_out |= !inside;
         all_out &= !inside;
      }
      if (all_out)
         return 0;
      if (!any_out)
         continue;
      unsigned m = 0;
      for (unsigned i = 0; i < n; i++) {
         unsigned j = (i + 1) % n;
         const struct raster_clip_vertex *a = &buf[cur][i], *b = &buf[cur][j];
         bool a_in = d[i] >= 0.0f, b_in = d[j] >= 0.0f;
         if (a_in)
            buf[cur ^ 1][m++] = *a;
         if (a_in && !b_in)
            buf[cur ^ 1][m++] = lerp_vertex(a, d[i], b, d[j]);
         else if (!a_in && b_in)
            buf[cur ^ 1][m++] = lerp_vertex(b, d[j], a, d[i]);
      }
      cur ^= 1;
      n = m;
   }
   if (n < 3)
      return 0;
   memcpy(out, buf[cur], n * sizeof(out[0]));
   return n;
}

bool raster_clip_line(const struct raster_clip_state *s, const float position[2][4],
                      const float (*clip_distance)[PPU_GFX_MAX_CLIP_DISTANCES], float *t0,
                      float *t1)
{
   /* The ends as vertices 0 and 1 of a triangle, so the clip distances
    * are plane_distance's weighted sums as for triangles. */
   struct raster_clip_vertex v[2];
   for (unsigned i = 0; i < 2; i++) {
      memcpy(v[i].position, position[i], sizeof(v[i].position));
      for (unsigned k = 0; k < 3; k++)
         v[i].bary[k] = k == i ? 1.0f : 0.0f;
   }
   float dist[3][8] = {{0}};
   if (clip_distance)
      memcpy(dist, clip_distance, 2 * sizeof(dist[0]));
   float lo = 0.0f, hi = 1.0f;
   for (unsigned p = 0; p < RASTER_CLIP_MAX_PLANES; p++) {
      if (!plane_active(s, p) || (p >= 6 && !clip_distance))
         continue;
      float d0 = plane_distance(s, p, &v[0], dist), d1 = plane_distance(s, p, &v[1], dist);
      bool in0 = d0 >= 0.0f, in1 = d1 >= 0.0f;
      if (!in0 && !in1)
         return false; /* also NaN */
      if (in0 && in1)
         continue;
      float t = d0 / (d0 - d1);
      if (in0)
         hi = t < hi ? t : hi;
      else
         lo = t > lo ? t : lo;
   }
   if (lo > hi)
      return false;
   *t0 = lo;
   *t1 = hi;
   return true;
}

bool raster_clip_point(const struct raster_clip_state *s, const float position[4],
                       const float *clip_distance)
{
   const float *c = position;
   if (!(c[3] > 0.0f) || (!s->depth_clamp && !(c[2] >= 0.0f && c[2] <= c[3])))
      return false;
   for (unsigned i = 0; clip_distance && i < PPU_GFX_MAX_CLIP_DISTANCES; i++)
      if ((s->clip_distance_mask >> i & 1u) && !(clip_distance[i] >= 0.0f))
         return false;
   return true;
}

bool raster_clip_outside_view(const float (*position)[4], unsigned vertices)
{
   for (unsigned axis = 0; axis < 2; axis++) {
      unsigned above = 0, below = 0;
      for (unsigned v = 0; v < vertices; v++) {
         above += position[v][axis] > position[v][3];
         below += position[v][axis] < -position[v][3];
      }
      if (above == vertices || below == vertices)
         return true;
   }
   return false;
}

bool raster_clip_culled(const struct raster_clip_state *s, unsigned vertices,
                        const float (*distance)[PPU_GFX_MAX_CLIP_DISTANCES])
{
   if (!distance)
      return false;
   for (unsigned i = 0; i < PPU_GFX_MAX_CLIP_DISTANCES; i++) {
      if (!(s->cull_distance_mask >> i & 1u))
         continue;
      unsigned negative = 0;
      for (unsigned v = 0; v < vertices; v++)
         negative += distance[v][i] < 0.0f;
      if (negative == vertices)
         return true;
   }
   return false;
}
