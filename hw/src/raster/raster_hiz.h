/* The culling engine's hierarchical Z (beam-tracing seed: "tiles associated
 * with the primitive that fail a hierarchical z test are culled"): the
 * range [min, max] of the depth values stored in each 8x8 tile of the depth
 * target, and the test that culls a tile only when no sample of the
 * triangle in it could pass the depth test.
 *
 * The stored range is conservative: it always contains every sample's
 * depth in the tile. It starts unknown (-inf, +inf), is set exactly after a
 * clear or when ZROP has read every sample of a tile, and is widened when
 * ZROP writes samples without knowing the tile's other values.
 *
 * The engine may cull only when a failing depth test has no effect besides
 * dropping the samples: no stencil test that writes on stencil or depth
 * failure, a fragment program that neither writes depth nor has side
 * effects. The caller decides that (rop_zrop_hiz_cull_allowed).
 */
#ifndef PPU_RASTER_HIZ_H
#define PPU_RASTER_HIZ_H

#include <stdbool.h>
#include <stdint.h>

#include "raster/raster_setup.h"

struct raster_hiz {
   uint32_t tiles_x, tiles_y;
   float *zmin, *zmax; /* tiles_x * tiles_y, row order */
};

/* How fragment depth reaches the depth target: UNORM formats clamp to
 * [0, 1] and round to a code, so a range must be widened by one code. */
struct raster_hiz_format {
   bool unorm;
   float quantum; /* 1 / (2^bits - 1) for UNORM, else 0 */
};

/* False when out of host memory. */
bool raster_hiz_init(struct raster_hiz *h, uint32_t width, uint32_t height);
void raster_hiz_free(struct raster_hiz *h);
/* Every tile unknown, or every tile exactly `depth` (after a clear). */
void raster_hiz_reset(struct raster_hiz *h);
void raster_hiz_clear(struct raster_hiz *h, float depth);
void raster_hiz_set(struct raster_hiz *h, int32_t tx, int32_t ty, float zmin, float zmax);
void raster_hiz_widen(struct raster_hiz *h, int32_t tx, int32_t ty, float zmin, float zmax);

/* A range holding the depth of every sample of t inside tile (tx, ty). */
void raster_hiz_triangle_range(const struct raster_triangle *t, int32_t tx, int32_t ty, float *lo,
                               float *hi);

/* False when no fragment depth in [lo, hi] can pass `op` (enum
 * ppu_gfx_compare_op) against any value stored in the tile. */
bool raster_hiz_may_pass(const struct raster_hiz *h, const struct raster_hiz_format *f, int32_t tx,
                         int32_t ty, unsigned op, float lo, float hi);

#endif
