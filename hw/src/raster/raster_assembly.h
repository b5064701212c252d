/* Primitive assembly (between the vertex warps and the clipping engine):
 * turns a draw's vertex stream into points, lines and triangles per
 * TOPOLOGY, with Vulkan's vertex order for each ("Drawing Primitives":
 * strip triangle i is (i, i + 1 + i % 2, i + 2 - i % 2), fan triangle i is
 * (i + 1, i + 2, 0)) so windings stay consistent, the provoking vertex of
 * the first or last mode ("Provoking Vertex"), and primitive restart: a
 * restart index ends the current strip, fan or list and drops an
 * incomplete primitive.
 */
#ifndef PPU_RASTER_ASSEMBLY_H
#define PPU_RASTER_ASSEMBLY_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/graphics.h"

struct raster_primitive {
   uint32_t vertex[3]; /* positions in the stream; points use 1, lines 2 */
   uint32_t provoking; /* position in the stream of the provoking vertex */
   uint32_t id;        /* primitive id: counts primitives from 0 */
};

struct raster_assembler {
   uint8_t topology; /* enum ppu_gfx_topology */
   bool restart;     /* PRIMITIVE_RESTART */
   bool provoking_last;
   uint32_t restart_index; /* the all-ones value of the index size */
   /* State of the current strip, fan or list since the last restart. */
   uint32_t first;     /* stream position of its first vertex */
   uint32_t count;     /* vertices since then */
   uint32_t window[2]; /* the previous two stream positions */
   uint32_t next_id;
};

void raster_assembler_init(struct raster_assembler *a, enum ppu_gfx_topology topology, bool restart,
                           bool provoking_last, unsigned index_size);

/* Takes the vertex at stream position pos with index value `index` (the
 * value read before DRAW_VERTEX_OFFSET is added; any value when not
 * indexed). Returns true and fills *out when it completes a primitive. */
bool raster_assembler_push(struct raster_assembler *a, uint32_t pos, uint32_t index,
                           struct raster_primitive *out);

/* Vertices per primitive of a topology (1, 2 or 3). */
unsigned raster_topology_vertices(enum ppu_gfx_topology topology);

#endif
