/* See ttu_intersect.h. */
#include "ttu/ttu_intersect.h"

#include <math.h>

void ppu_ttu_ray_setup(struct ppu_ttu_ray *r, const float org[3], const float dir[3])
{
   for (unsigned a = 0; a < 3; a++) {
      r->org[a] = org[a];
      r->dir[a] = dir[a];
      r->inv_dir[a] = dir[a] != 0.0f ? 1.0 / (double)dir[a] : 0.0;
   }
   unsigned kz = 0;
   for (unsigned a = 1; a < 3; a++)
      if (fabsf(dir[a]) > fabsf(dir[kz]))
         kz = a;
   unsigned kx = (kz + 1) % 3, ky = (kx + 1) % 3;
   /* Looking down -kz mirrors the projected plane; swapping x and y keeps
    * the sign of the projected area (the triangle's winding) meaningful. */
   if (dir[kz] < 0.0f) {
      unsigned t = kx;
      kx = ky;
      ky = t;
   }
   r->kx = kx;
   r->ky = ky;
   r->kz = kz;
   r->sx = dir[kx] / dir[kz];
   r->sy = dir[ky] / dir[kz];
   r->sz = 1.0f / dir[kz];
}

void ppu_ttu_object_ray(const float (*m)[4], const float org[3], const float dir[3],
                        float object_org[3], float object_dir[3])
{
   for (unsigned i = 0; i < 3; i++) {
      object_org[i] = m[i][0] * org[0] + m[i][1] * org[1] + m[i][2] * org[2] + m[i][3];
      object_dir[i] = m[i][0] * dir[0] + m[i][1] * dir[1] + m[i][2] * dir[2];
   }
}

bool ppu_ttu_box_test(const struct ppu_ttu_ray *r, const float lo[3], const float hi[3], float tmin,
                      float tmax, float *tnear)
{
   double enter = -INFINITY, leave = INFINITY;
   for (unsigned a = 0; a < 3; a++) {
      if (r->dir[a] == 0.0f) {
         /* Parallel to the slab: inside for every t or never. Handled
          * apart because (plane - org) * inf is NaN at a plane. */
         if (!(r->org[a] >= lo[a] && r->org[a] <= hi[a]))
            return false;
         continue;
      }
      double t0 = ((double)lo[a] - r->org[a]) * r->inv_dir[a];
      double t1 = ((double)hi[a] - r->org[a]) * r->inv_dir[a];
      if (t0 > t1) {
         double t = t0;
         t0 = t1;
         t1 = t;
      }
      /* Written so that a NaN plane (garbage memory) empties the interval. */
      enter = t0 > enter ? t0 : enter;
      leave = t1 < leave ? t1 : leave;
      if (!(t0 <= t1))
         return false;
   }
   enter -= fabs(enter) * PPU_TTU_BOX_DILATION;
   leave += fabs(leave) * PPU_TTU_BOX_DILATION;
   if (enter < tmin)
      enter = tmin;
   if (leave > tmax)
      leave = tmax;
   if (!(enter <= leave))
      return false;
   *tnear = (float)enter;
   if (*tnear < tmin) /* rounding to binary32 must not leave [tmin, ...] */
      *tnear = tmin;
   return true;
}

/* a*b - c*d with the products in separate statements: a compiler that
 * contracts into FMA only within one expression leaves this alone, so the
 * edge function of a shared edge is exactly negated in the neighbouring
 * triangle (the watertightness the paper relies on). */
static float edge(float a, float b, float c, float d)
{
   float p = a * b;
   float q = c * d;
   return p - q;
}

static double edge_double(float a, float b, float c, float d)
{
   double p = (double)a * b; /* exact: a binary32 product fits in binary64 */
   double q = (double)c * d;
   return p - q;
}

bool ppu_ttu_triangle_test(const struct ppu_ttu_ray *r, const float v0[3], const float v1[3],
                           const float v2[3], float tmin, float tmax,
                           struct ppu_ttu_triangle_hit *hit)
{
   unsigned kx = r->kx, ky = r->ky, kz = r->kz;
   /* Vertices relative to the origin, sheared so the ray runs along +z. */
   float a[3] = {v0[0] - r->org[0], v0[1] - r->org[1], v0[2] - r->org[2]};
   float b[3] = {v1[0] - r->org[0], v1[1] - r->org[1], v1[2] - r->org[2]};
   float c[3] = {v2[0] - r->org[0], v2[1] - r->org[1], v2[2] - r->org[2]};
   float ax = a[kx] - r->sx * a[kz], ay = a[ky] - r->sy * a[kz];
   float bx = b[kx] - r->sx * b[kz], by = b[ky] - r->sy * b[kz];
   float cx = c[kx] - r->sx * c[kz], cy = c[ky] - r->sy * c[kz];
   /* Scaled barycentrics: U weighs v0, V v1, W v2. */
   double u = edge(cx, by, cy, bx);
   double v = edge(ax, cy, ay, cx);
   double w = edge(bx, ay, by, ax);
   if (u == 0.0 || v == 0.0 || w == 0.0) {
      /* On an edge in binary32: decide in binary64 so both triangles that
       * share the edge agree (the paper's fallback). */
      u = edge_double(cx, by, cy, bx);
      v = edge_double(ax, cy, ay, cx);
      w = edge_double(bx, ay, by, ax);
   }
   if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0))
      return false;
   double det = u + v + w;
   if (!(det != 0.0)) /* edge-on (or NaN): no face is hit */
      return false;
   double az = (double)r->sz * a[kz], bz = (double)r->sz * b[kz], cz = (double)r->sz * c[kz];
   double t = (u * az + v * bz + w * cz) / det;
   if (!(t >= tmin && t <= tmax))
      return false;
   hit->t = (float)t;
   if (!(hit->t >= tmin && hit->t <= tmax))
      return false;
   hit->u = (float)(v / det);
   hit->v = (float)(w / det);
   hit->det_positive = det > 0.0;
   return true;
}
