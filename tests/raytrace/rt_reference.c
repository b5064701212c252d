/* See rt_reference.h. */
#include "rt_reference.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

struct triangle_test {
   bool exact;      /* hit in binary64 (inside, tmin <= t <= tmax) */
   bool definite;   /* hit, and clear of every rounding margin */
   bool borderline; /* within a margin: a binary32 test may say either */
   double t, t_margin, u, v, scale;
};

static double dot3(const double a[3], const double b[3])
{
   return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

static double max_abs3(const double a[3])
{
   return fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
}

static void test_triangle(const float *tri, const struct rt_ref_ray *r, double direction_length,
                          double origin_scale, struct triangle_test *out)
{
   *out = (struct triangle_test){0};
   double v0[3], e1[3], e2[3], e3[3], s[3], p[3], q[3], n[3];
   for (int a = 0; a < 3; a++) {
      v0[a] = tri[a];
      e1[a] = (double)tri[3 + a] - tri[a];
      e2[a] = (double)tri[6 + a] - tri[a];
      e3[a] = (double)tri[6 + a] - tri[3 + a];
      s[a] = r->origin[a] - v0[a];
   }
   cross3(e1, e2, n);
   double area2 = sqrt(dot3(n, n));
   cross3(r->direction, e2, p);
   double det = dot3(e1, p);
   if (area2 == 0 || det == 0 || !isfinite(det))
      return; /* degenerate, or exactly edge-on: no test reports these */
   double inv = 1.0 / det;
   cross3(s, e1, q);
   double u = dot3(s, p) * inv, v = dot3(r->direction, q) * inv, w = 1.0 - u - v;
   double t = dot3(e2, q) * inv;
   double scale = origin_scale;
   for (int k = 0; k < 3; k++) {
      double c[3] = {tri[3 * k], tri[3 * k + 1], tri[3 * k + 2]};
      scale = fmax(scale, max_abs3(c));
   }
   /* A binary32 test projects the triangle along the ray (Woop et al.) and
    * rounds the projected coordinates by about EPS x scale. In the
    * projection, a corner's weight changes by that / the corner's altitude,
    * which is twice the projected area (|det| / |d|) over the projected
    * length of the opposite edge (|edge x d| / |d|); both shrink as the ray
    * turns edge-on, which widens the margin. t moves by the same rounding
    * over the sine of the angle between ray and plane. */
   double ep[3];
   cross3(e2, r->direction, ep);
   double mu = RT_REF_EDGE_EPS * scale * sqrt(dot3(ep, ep)) / fabs(det);
   cross3(e1, r->direction, ep);
   double mv = RT_REF_EDGE_EPS * scale * sqrt(dot3(ep, ep)) / fabs(det);
   cross3(e3, r->direction, ep);
   double mw = RT_REF_EDGE_EPS * scale * sqrt(dot3(ep, ep)) / fabs(det);
   bool near_parallel = fabs(det) < RT_REF_EDGE_EPS * area2 * direction_length;
   double tm = RT_REF_EDGE_EPS * fmax(fabs(t), scale * area2 / fabs(det));
   bool inside = u >= 0 && v >= 0 && w >= 0;
   bool inside_clear = u > mu && v > mv && w > mw;
   bool inside_possible = u >= -mu && v >= -mv && w >= -mw;
   bool t_in = t >= r->tmin && t <= r->tmax;
   bool t_clear = t > r->tmin + tm && t < r->tmax - tm;
   bool t_possible = t >= r->tmin - tm && t <= r->tmax + tm;
   out->exact = inside && t_in;
   out->definite = inside_clear && t_clear && !near_parallel;
   out->borderline = inside_possible && t_possible && !out->definite;
   out->t = t;
   out->t_margin = tm;
   out->u = u;
   out->v = v;
   out->scale = scale;
}

static double length3(const double a[3])
{
   return sqrt(dot3(a, a));
}

void rt_ref_trace(const float *soup, uint32_t count, const struct rt_ref_ray *r,
                  struct rt_ref_hit *hit)
{
   double dl = length3(r->direction), os = max_abs3(r->origin);
   *hit = (struct rt_ref_hit){.primitive = UINT32_MAX, .t = INFINITY, .scale = os};
   /* Every triangle that is hit or borderline, to pick from afterwards. */
   enum { MAX_KEPT = 64 };
   struct kept_triangle {
      uint32_t index;
      struct triangle_test x;
   } kept[MAX_KEPT];
   uint32_t kept_count = 0;
   double definite_bound = INFINITY; /* least t + margin of a definite hit */
   for (uint32_t i = 0; i < count; i++) {
      struct triangle_test x;
      test_triangle(soup + 9 * (size_t)i, r, dl, os, &x);
      if (x.definite)
         definite_bound = fmin(definite_bound, x.t + x.t_margin);
      if (x.exact && x.t < hit->t) {
         hit->hit = true;
         hit->primitive = i;
         hit->t = x.t;
         hit->u = x.u;
         hit->v = x.v;
         hit->scale = x.scale;
      }
      if ((x.exact || x.borderline) && kept_count < MAX_KEPT)
         kept[kept_count++] = (struct kept_triangle){i, x};
   }
   /* A triangle that could come first within rounding, other than the
    * closest hit itself, or a closest hit that is borderline. */
   hit->miss_possible = definite_bound == INFINITY;
   uint32_t could_be_first = 0;
   for (uint32_t k = 0; k < kept_count; k++) {
      const struct triangle_test *x = &kept[k].x;
      if (x->t - x->t_margin > definite_bound)
         continue;
      could_be_first++;
      if (x->borderline)
         hit->grazing = true;
      if (hit->alternative_count < RT_REF_MAX_ALTERNATIVES) {
         hit->alternative[hit->alternative_count] = kept[k].index;
         hit->alternative_t[hit->alternative_count++] = x->t;
      }
   }
   hit->grazing |= could_be_first > 1 || kept_count == MAX_KEPT;
}

uint32_t rt_ref_crossings(const float *soup, uint32_t count, const struct rt_ref_ray *r,
                          bool *grazing)
{
   double dl = length3(r->direction), os = max_abs3(r->origin);
   uint32_t n = 0;
   *grazing = false;
   for (uint32_t i = 0; i < count; i++) {
      struct triangle_test x;
      test_triangle(soup + 9 * (size_t)i, r, dl, os, &x);
      n += x.exact;
      *grazing |= x.borderline;
   }
   return n;
}

bool rt_ref_accepts(const struct rt_ref_hit *ref, bool hit, uint32_t primitive, double t,
                    double t_tolerance, const char **why)
{
   if (ref->grazing) {
      if (!hit) {
         *why = "grazing ray missed, but it has a clear hit";
         return ref->miss_possible;
      }
      *why = "grazing ray hit a triangle that cannot come first";
      if (ref->alternative_count == RT_REF_MAX_ALTERNATIVES)
         return true; /* the list is cut short: cannot tell */
      for (uint32_t k = 0; k < ref->alternative_count; k++)
         if (ref->alternative[k] == primitive && fabs(t - ref->alternative_t[k]) <= t_tolerance)
            return true;
      return false;
   }
   *why = "hit/miss differs";
   if (hit != ref->hit)
      return false;
   *why = "primitive differs";
   if (hit && primitive != ref->primitive)
      return false;
   *why = "t differs";
   return !hit || fabs(t - ref->t) <= t_tolerance;
}
