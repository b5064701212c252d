/* The tile coalescing engine (beam-tracing seed): packs the quads the fine
 * raster emits, across consecutive primitives, into fragment warps of
 * PPU_GFX_QUADS_PER_WARP (8) quads, in the order they arrive, so small
 * triangles still fill whole warps. Each quad keeps the index of its
 * primitive (lanes of one warp read different primitive records).
 *
 * With ordered pixels a warp never holds two quads at the same position:
 * the second one starts a new warp, so the warp's lanes never race on a
 * pixel and the ROP receives each warp's results in primitive order. With
 * relaxed ordering (PIXEL_ORDER RELAXED, and state for which the order
 * cannot change the result) they may share a warp.
 */
#ifndef PPU_RASTER_COALESCE_H
#define PPU_RASTER_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "raster/raster_fine.h"

struct raster_warp_batch {
   unsigned count;
   struct raster_quad quads[PPU_GFX_QUADS_PER_WARP];
   uint32_t primitive[PPU_GFX_QUADS_PER_WARP];
};

struct raster_coalescer {
   bool relaxed;
   struct raster_warp_batch batch;
};

void raster_coalescer_init(struct raster_coalescer *c, bool relaxed);

/* Adds a quad. When the quad does not fit the open batch, that batch is
 * copied to *full, a new batch starts with the quad and the result is true:
 * the caller launches *full. */
bool raster_coalescer_add(struct raster_coalescer *c, const struct raster_quad *q,
                          uint32_t primitive, struct raster_warp_batch *full);

/* Closes the open batch (end of a draw or a state change); true when it
 * held quads, copied to *out. */
bool raster_coalescer_flush(struct raster_coalescer *c, struct raster_warp_batch *out);

#endif
