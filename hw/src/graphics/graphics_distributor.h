/* The graphics primitive distribution unit (GPDU, docs/graphics-hw.md
 * "Vertex work"): reads indices (1, 2 or 4 bytes, INDEX_LIMIT, primitive
 * restart) or generates them, runs primitive assembly over the stream and
 * cuts the draw into vertex batches: up to 32 distinct vertices (one
 * warp) and the primitives that use only them, in order. A primitive
 * whose vertices do not fit closes the batch; its vertices start the next
 * one (a fan's first vertex or a strip's last two are shaded again).
 * Repeated indices inside a batch share one vertex. Each instance, and
 * each draw of DRAW_INDIRECT, is its own run of batches.
 */
#ifndef PPU_GRAPHICS_DISTRIBUTOR_H
#define PPU_GRAPHICS_DISTRIBUTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/isa.h"

struct gfx_draw;

/* Primitives one batch holds at most (many primitives over few vertices
 * close the batch early; results do not change). */
#define GFX_BATCH_PRIMITIVES_MAX 96u

struct gfx_draw_params {
   bool indexed;
   uint32_t first, count; /* vertices, or indices when indexed */
   uint32_t first_instance, instance_count;
   int32_t vertex_offset;
   uint32_t draw_index; /* gl_DrawID */
};

struct gfx_batch_primitive {
   uint8_t slot[3]; /* batch lanes of its vertices */
   uint8_t provoking;
   uint32_t id; /* primitive id within the instance */
};

struct gfx_batch {
   uint32_t count;                 /* vertices (lanes) */
   uint32_t vertex[PPU_WARP_SIZE]; /* vertex index of each lane (gl_VertexIndex) */
   uint32_t instance;              /* gl_InstanceIndex */
   unsigned primitive_count;
   struct gfx_batch_primitive primitive[GFX_BATCH_PRIMITIVES_MAX];
};

/* Runs one draw's vertex stream through batches (gfx_draw_batch). False
 * with the draw's fault on an index fetch fault or a fault in the batch. */
bool gfx_distribute(struct gfx_draw *d, const struct gfx_draw_params *p);

/* DRAW_INDIRECT: reads the draw count (from memory with
 * COUNT_FROM_MEMORY) and each argument record, and distributes each. */
bool gfx_distribute_indirect(struct gfx_draw *d, uint32_t flags);

#endif
