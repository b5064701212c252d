/* The setup engine of the raster engine (beam-tracing seed: "The setup
 * engine receives transformed vertices ... and generates edge equations").
 *
 * Window positions snap to fixed point with PPU_GFX_SUBPIXEL_BITS (8)
 * fractional bits, round to nearest; every edge function is then exact in
 * 64-bit integers, so coverage never depends on float rounding and two
 * triangles that share an edge see the same edge with opposite signs.
 *
 * Coverage rule (Vulkan "Basic Polygon Rasterization"): a sample is covered
 * when it lies inside all three edges; a sample exactly on an edge belongs to
 * the triangle only when that edge is a top edge (horizontal, interior below
 * it, y growing down) or a left edge (interior to its right). Two triangles
 * sharing an edge therefore cover each sample on it exactly once.
 *
 * Facing: a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) over the snapped window
 * positions ("Basic Polygon Rasterization"); a == 0 is never rasterized.
 */
#ifndef PPU_RASTER_SETUP_H
#define PPU_RASTER_SETUP_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>

#include "ppu/graphics.h"

#define RASTER_SUBPIXEL_ONE (1 << PPU_GFX_SUBPIXEL_BITS)

/* A pixel rectangle [x0, x1) x [y0, y1). */
struct raster_rect {
   int32_t x0, y0, x1, y1;
};

/* One snapped window-space vertex, as setup takes it. */
struct raster_window_vertex {
   double x, y;     /* pixels */
   float z;         /* window depth (after the viewport's z transform) */
   float inverse_w; /* 1 / clip w */
};

/* Depth-bias and depth-clamp state of setup. */
struct raster_depth_state {
   bool bias_enable;
   float bias_constant, bias_slope, bias_clamp;
   /* Minimum resolvable difference: 0 for a float depth format (the
    * exponent then comes from the primitive), else 2^-bits of the UNORM. */
   unsigned unorm_bits;
   bool clamp_enable; /* clamp every sample's depth to [clamp_min, clamp_max] */
   float clamp_min, clamp_max;
};

struct raster_setup_state {
   uint32_t cull;           /* PPU_GFX_CULL_* */
   uint8_t front_face;      /* enum ppu_gfx_front_face */
   struct raster_rect clip; /* scissor ∩ render area ∩ target extent */
   struct raster_depth_state depth;
};

/* A set-up triangle: edge functions E_i(p) = a_i * px + b_i * py + c_i over
 * fixed-point sample positions, positive inside; covered when
 * E_i + bias_i >= 0 for every edge (bias -1 on edges that are neither top
 * nor left). */
struct raster_triangle {
   int64_t x[3], y[3]; /* snapped vertices, in the order that makes the area positive */
   uint8_t source[3];  /* input vertex at each position */
   int64_t edge_a[3], edge_b[3], edge_c[3], edge_bias[3];
   struct raster_rect bounds; /* pixels that may be covered, within the clip rect */
   bool front_facing;
   /* Depth: z(dx, dy) = a dx + b dy + c with dx, dy relative to origin,
    * clamped to [z_min, z_max] (the vertices' range), plus bias, then to
    * the clamp range if on. */
   int32_t origin_x, origin_y;
   float z_a, z_b, z_c, z_min, z_max, depth_bias;
   bool depth_clamp;
   float clamp_min, clamp_max;
   /* Set up from a point's square (raster_point_line.h): its window centre
    * and size, from which setup writes gl_PointCoord's planes; size 0 for
    * every other primitive. */
   double point_x, point_y;
   float point_size;
};

/* Sets up one triangle. False when nothing can be covered: zero area,
 * culled, outside the clip rect, a vertex beyond the guard band or not a
 * number, a depth that is not finite. */
bool raster_setup_triangle(const struct raster_setup_state *s,
                           const struct raster_window_vertex v[3], struct raster_triangle *t);

/* Whether setup would drop the triangle for its facing or zero area (the
 * facing test alone, for polygon modes that draw edges or vertices);
 * *front_facing gets its facing. */
bool raster_setup_culls(const struct raster_setup_state *s, const struct raster_window_vertex v[3],
                        bool *front_facing);

/* The plane through three values at the triangle's vertices (given in input
 * vertex order), relative to the triangle's origin. */
struct ppu_gfx_plane raster_setup_plane(const struct raster_triangle *t, const float value[3]);

/* The depth of a sample at fixed-point window position (sx, sy), exactly
 * as the fine raster computes it. */
float raster_sample_depth(const struct raster_triangle *t, int64_t sx, int64_t sy);

/* The same from the position relative to the origin, in pixels. Plain
 * multiply-adds and comparisons (no libm calls), so loops over it
 * vectorize; hi-Z's range bounds its rounding. Inside the triangle the
 * exact plane lies within the vertices' range, so clamping to it removes
 * rounding that could leave it and keeps hi-Z's per-triangle range
 * conservative. */
static inline float raster_depth_from_plane(const struct raster_triangle *t, float dx, float dy)
{
   float z = t->z_a * dx + t->z_b * dy + t->z_c;
   z = z < t->z_min ? t->z_min : z;
   z = (z > t->z_max ? t->z_max : z) + t->depth_bias;
   /* Without depth clamp the range is (-inf, inf): no branch in loops. */
   float lo = t->depth_clamp ? t->clamp_min : -INFINITY;
   float hi = t->depth_clamp ? t->clamp_max : INFINITY;
   z = z < lo ? lo : z;
   return z > hi ? hi : z;
}

/* A sample's offset from the origin along one axis: pixel - origin plus
 * the sample's position in the pixel (in 1/256). */
static inline float raster_sample_offset(int64_t pixel, int32_t origin, unsigned sub)
{
   return (float)(pixel - origin) + (float)sub * (1.0f / RASTER_SUBPIXEL_ONE);
}

#endif
