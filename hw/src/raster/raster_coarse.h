/* The coarse raster engine (beam-tracing seed: "The edge equations are
 * transmitted to the coarse raster engine to determine the set of pixel
 * tiles covered by the primitive"). Tiles are PPU_GFX_TILE_SIZE (8) pixels
 * square; each edge is tested at the tile corner where it is largest
 * (reject when negative there) and smallest (fully inside when
 * non-negative there), exactly, in the setup's integers.
 */
#ifndef PPU_RASTER_COARSE_H
#define PPU_RASTER_COARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "raster/raster_setup.h"

enum raster_tile_class {
   RASTER_TILE_OUTSIDE = 0, /* no sample of the tile can be covered */
   RASTER_TILE_PARTIAL = 1, /* the fine raster decides */
   RASTER_TILE_FULL = 2,    /* every sample of every pixel inside the bounds is covered */
};

enum raster_tile_class raster_coarse_classify(const struct raster_triangle *t, int32_t tx,
                                              int32_t ty);

/* The tiles of t's bounds that are not OUTSIDE, in row order (the order
 * the fine raster and the ROP see them). visit returns false to stop. */
typedef bool (*raster_tile_visit)(void *ctx, int32_t tx, int32_t ty, enum raster_tile_class c);
void raster_coarse_walk(const struct raster_triangle *t, raster_tile_visit visit, void *ctx);

#endif
