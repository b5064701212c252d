/* The TTU's intersection datapath: ray against box (the child boxes of a
 * node, AABB primitives) and ray against triangle.
 *
 * The unified-box-triangle-datapath seed runs both tests through one
 * pipelined datapath whose mux layers a control unit configures per
 * instruction type (4 box tests or 1 triangle test per cycle). Functionally
 * the two are separate functions here; the per-ray constants both need (the
 * reciprocal direction for the slabs, the shear for the triangle test) are
 * computed once per ray and level by ppu_ttu_ray_setup, the work the seed's
 * setup unit does.
 */
#ifndef PPU_TTU_INTERSECT_H
#define PPU_TTU_INTERSECT_H

#include <stdbool.h>
#include <stdint.h>

struct ppu_ttu_ray {
   float org[3], dir[3];
   double inv_dir[3]; /* 1 / dir per axis (unused where dir is 0) */
   /* Watertight triangle test constants (Woop, Benthin, Wald, "Watertight
    * Ray/Triangle Intersection", JCGT 2013): kz is the axis where |dir| is
    * largest, kx/ky the other two in an order that keeps the winding. */
   unsigned kx, ky, kz;
   float sx, sy, sz;
};

/* Relative widening of a box's [entry, exit] interval. The slabs are
 * computed in double from binary32 planes, so their own error is far below
 * this; the margin covers the binary32 rounding of the t that the triangle
 * test reports, so a box is never culled against a committed t that a
 * primitive inside it could still beat. 2^-20 is 8 ULP of binary32. */
#define PPU_TTU_BOX_DILATION (1.0 / 1048576.0)

void ppu_ttu_ray_setup(struct ppu_ttu_ray *r, const float org[3], const float dir[3]);

/* The ray in an instance's object space: world_to_object (row-major 3x4)
 * applied to origin and direction in binary32, as the setup unit does when
 * the walk enters an instance. One function, so that the beam formed for an
 * instance (ttu_beam_walk.c) encloses the rays' bits exactly. */
void ppu_ttu_object_ray(const float (*world_to_object)[4], const float org[3], const float dir[3],
                        float object_org[3], float object_dir[3]);

/* Slab test of the box [lo, hi] against the ray over [tmin, tmax]. The
 * interval is dilated by a few ULP so that rounding never loses a
 * primitive the box contains (the beam-tracing seed's conservative rays).
 * True on a hit, with *tnear = the entry t clamped to tmin. */
bool ppu_ttu_box_test(const struct ppu_ttu_ray *r, const float lo[3], const float hi[3], float tmin,
                      float tmax, float *tnear);

struct ppu_ttu_triangle_hit {
   float t;
   float u, v;        /* barycentric weights of v1 and v2 */
   bool det_positive; /* the winding seen from the ray: front facing before FLIP_FACING */
};

/* Watertight ray/triangle test over [tmin, tmax] (both inclusive). Rays
 * that meet the triangle edge-on (zero projected area) miss, as the Vulkan
 * spec culls them ("Ray Face Culling": a == 0). */
bool ppu_ttu_triangle_test(const struct ppu_ttu_ray *r, const float v0[3], const float v1[3],
                           const float v2[3], float tmin, float tmax,
                           struct ppu_ttu_triangle_hit *hit);

#endif /* PPU_TTU_INTERSECT_H */
