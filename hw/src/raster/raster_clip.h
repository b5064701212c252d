/* The clipping engine of the raster engine (beam-tracing seed: "Primitives
 * lying outside a viewing frustum may be clipped by the clipping engine").
 *
 * x and y are not clipped to the view volume: the fine raster's scissor does
 * that exactly, and the setup's fixed-point range (the guard band,
 * PPU_GFX_GUARD_BAND) holds any window position a clipped vertex can have.
 * Only triangles that reach beyond the guard band are clipped against it,
 * which also removes every point with w <= 0 (both guard planes hold only
 * for w >= 0). Near and far (Vulkan's 0 <= z <= w, "Primitive Clipping") are
 * clipped unless depth clamping is on, as are the clip distances a vertex
 * program writes (negative = outside), for triangles and lines; a point
 * with a negative clip distance is dropped (Vulkan "Primitive Clipping":
 * the clip volume is the intersection of the clip half-spaces). Before
 * any clipping a primitive whose vertices all have a negative value of
 * one cull distance is discarded whole ("Clip and Cull Distances").
 *
 * A clipped vertex carries its barycentric weights in the original triangle,
 * so attributes are interpolated from the original vertices (linear in clip
 * space is what perspective-correct interpolation needs). A new vertex on an
 * edge is always computed from the edge's inside vertex towards its outside
 * one, so two triangles sharing a clipped edge get bit-identical vertices
 * and stay watertight.
 */
#ifndef PPU_RASTER_CLIP_H
#define PPU_RASTER_CLIP_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/graphics.h"

/* 4 guard planes, near, far, up to 8 clip distances: a triangle clipped by
 * n planes has at most 3 + n vertices. */
#define RASTER_CLIP_MAX_PLANES (6u + PPU_GFX_MAX_CLIP_DISTANCES)
#define RASTER_CLIP_MAX_VERTICES (3u + RASTER_CLIP_MAX_PLANES)

struct raster_clip_vertex {
   float position[4]; /* clip space */
   float bary[3];     /* weights of the original vertices 0, 1, 2 */
};

/* The guard band as clip-space planes: lo * w <= x <= hi * w, same for y. */
struct raster_clip_state {
   float x_lo, x_hi, y_lo, y_hi; /* NDC bounds of the guard band for the viewport */
   bool depth_clamp;             /* no near/far clipping */
   uint32_t clip_distance_mask;  /* distances that clip */
   uint32_t cull_distance_mask;  /* distances that cull (0 after init) */
};

/* Derives the guard-band planes for a viewport (window = ndc * scale + offset). */
void raster_clip_state_init(struct raster_clip_state *s, float scale_x, float offset_x,
                            float scale_y, float offset_y, bool depth_clamp,
                            uint32_t clip_distance_mask);

/* Clips one triangle. clip_distance[v][i] may be NULL when the mask is 0.
 * Returns the polygon's vertex count (0: nothing left; 3: out[] is the
 * triangle itself, unclipped), a convex fan around out[0]. */
unsigned raster_clip_triangle(const struct raster_clip_state *s, const float position[3][4],
                              const float (*clip_distance)[PPU_GFX_MAX_CLIP_DISTANCES],
                              struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES]);

/* Clips a segment against the same planes (clip_distance[v][i] as for
 * triangles, NULL when the mask is 0): false when nothing is left, else
 * t0 <= t1 are the parameters of the kept part of position[0] + t
 * (position[1] - position[0]). */
bool raster_clip_line(const struct raster_clip_state *s, const float position[2][4],
                      const float (*clip_distance)[PPU_GFX_MAX_CLIP_DISTANCES], float *t0,
                      float *t1);

/* Whether a point survives clipping: in front of the eye, inside near/far
 * unless depth clamping, and no clip distance of the mask negative (or
 * NaN). clip_distance may be NULL when the mask is 0. */
bool raster_clip_point(const struct raster_clip_state *s, const float position[4],
                       const float *clip_distance);

/* The clipper's trivial reject: whether all `vertices` (1 to 3) lie
 * outside one of the view volume's side planes (x > w, x < -w, y > w,
 * y < -w), so the primitive covers nothing of the viewport. The guard
 * band would let such a primitive through to setup, which then finds no
 * pixel; rejecting it here is what the clipping statistics count. */
bool raster_clip_outside_view(const float (*position)[4], unsigned vertices);

/* Whether the cull distances discard a primitive of `vertices` vertices
 * (1 to 3): some distance of cull_distance_mask is negative at every
 * vertex. NULL distances never cull. */
bool raster_clip_culled(const struct raster_clip_state *s, unsigned vertices,
                        const float (*distance)[PPU_GFX_MAX_CLIP_DISTANCES]);

#endif
