/* A brute-force CPU ray caster in double precision, written for the
 * raytrace tests independently of driver/bvh and hw/src/ttu: every ray is
 * tested against every triangle (Moller-Trumbore in binary64 on the binary32
 * inputs), with no tree and no shared arithmetic.
 *
 * Besides the closest hit it says whether the ray is GRAZING: whether an
 * answer within binary32 rounding of the inputs could be another one, so a
 * correct binary32 traversal may legitimately disagree. That is the case
 * when the closest hit, or a triangle that could beat it, lies within
 * RT_REF_EDGE_EPS x (magnitude of the coordinates) of an edge of its
 * triangle, measured in the projection along the ray (so the margin grows
 * as the ray turns edge-on to the triangle); when the ray is within
 * RT_REF_EDGE_EPS (as a sine) of lying in a candidate triangle's plane; when
 * two triangles are hit at t within rounding of each other; or when the
 * closest t is that close to tmin or tmax. */
#ifndef RT_REFERENCE_H
#define RT_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

/* About 8 binary32 ulps: the rounding a watertight binary32 test makes of
 * the coordinates (translating vertices to the ray origin and shearing). */
#define RT_REF_EDGE_EPS 1e-6

struct rt_ref_ray {
   double origin[3], direction[3];
   double tmin, tmax;
};

#define RT_REF_MAX_ALTERNATIVES 8

struct rt_ref_hit {
   bool hit;
   bool grazing;
   uint32_t primitive; /* index of the triangle; UINT32_MAX on a miss */
   double t, u, v;     /* u, v: weights of v1 and v2 */
   double scale;       /* magnitude of the coordinates (origin, hit triangle) */
   /* For a grazing ray, the answers a correct binary32 test may give: a miss
    * when miss_possible, else one of the alternatives (triangle, t); the
    * list keeps the first RT_REF_MAX_ALTERNATIVES. */
   bool miss_possible;
   uint32_t alternative_count;
   uint32_t alternative[RT_REF_MAX_ALTERNATIVES];
   double alternative_t[RT_REF_MAX_ALTERNATIVES];
};

/* Closest hit of r among `count` triangles of 9 floats each (v0, v1, v2). */
void rt_ref_trace(const float *soup, uint32_t count, const struct rt_ref_ray *r,
                  struct rt_ref_hit *hit);

/* Whether a binary32 test's answer (hit, primitive, t) is right for a ray
 * the reference traced: the same answer with t within t_tolerance, or for a
 * grazing ray one of the answers listed as possible. *why says what is
 * wrong when it is not. */
bool rt_ref_accepts(const struct rt_ref_hit *ref, bool hit, uint32_t primitive, double t,
                    double t_tolerance, const char **why);

/* How many triangles r crosses at t > tmin (for parity: inside or outside a
 * closed mesh); *grazing as for rt_ref_trace, for any of them. */
uint32_t rt_ref_crossings(const float *soup, uint32_t count, const struct rt_ref_ray *r,
                          bool *grazing);

#endif /* RT_REFERENCE_H */
