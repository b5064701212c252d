/* One graphics action's work (DRAW / DRAW_INDIRECT): the latched state
 * checked as a whole and turned into the raster engine's state, the
 * programs loaded, the targets mapped; then each vertex batch from the
 * distributor runs as a vertex warp, its primitives go through primitive
 * assembly's order into the raster engine (raster_pipeline), setup writes
 * each triangle's primitive record to scratch, and each warp batch of
 * quads runs as a fragment warp whose outputs go to the ROP.
 *
 * Scratch (SCRATCH_ADDR/SIZE) holds the 32 vertex output records of one
 * batch (PPU_GFX_VERTEX_STRIDE of the vertex program's attribute count
 * each) followed by one primitive record (PPU_GFX_PRIMITIVE_STRIDE of the
 * fragment program's). Once the vertex records are read back the engine
 * uses the whole scratch as primitive record slots, so the fragment warps
 * of several primitives of the batch wait in the raster engine's queue and
 * run together on several SMs (docs/graphics-hw.md "Fragment dispatch").
 */
#ifndef PPU_GRAPHICS_DRAW_H
#define PPU_GRAPHICS_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "graphics/graphics_distributor.h"
#include "graphics/graphics_engine.h"
#include "graphics/graphics_program.h"
#include "graphics/graphics_targets.h"
#include "raster/raster_pipeline.h"

/* Most SMs one draw's fragment warps are spread over (SM 1 up). */
#define GFX_FRAGMENT_SMS_MAX 8u
/* Warp batches the raster engine queues before the fragment SMs shade
 * them together. */
#define GFX_FRAGMENT_QUEUE 32u

struct gfx_fragment_result {
   bool ok; /* shaded without a fault */
   uint32_t warps, helper_lanes, fragment_lanes;
};

struct gfx_draw {
   struct ppu_graphics_engine *ge;
   const struct ppu_graphics_state *s;
   uint64_t pd_pa;
   struct ppu_fault *fault;
   struct gfx_program vp, fp;
   /* SMs the warps run on, and the grid each has begun (one SM may run
    * both programs, switching between them). */
   struct ppu_sm *sm[2]; /* vertex, fragment */
   const struct ppu_grid *sm_grid[2];
   struct gfx_target color[PPU_GFX_COLOR_TARGETS], depth;
   struct raster_pipeline pipe;
   struct raster_hiz hiz;
   bool has_hiz;
   unsigned viewport; /* the viewport the pipeline's state is for */
   uint32_t layer;    /* the layer (past each target's LAYER) the targets are mapped at */
   uint64_t scratch_va, primitive_va;
   uint32_t vertex_stride, primitive_stride;
   uint8_t *records;   /* the batch's vertex records, read back after the vertex warp */
   uint8_t *primitive; /* the primitive record being written */
   /* The primitive being rasterized (for setup and shading). */
   const struct gfx_batch_primitive *current;
   unsigned current_vertices;
   struct gfx_draw_params params;
   uint64_t helper_lanes, vertex_warps, fragment_warps;
   uint64_t input_vertices, vertex_lanes, fragment_lanes;
   /* Primitive record slots in scratch, the slot of the primitive being
    * set up, and how many slots the queued fragment work may still refer
    * to (slots are reused from 0 after a flush). */
   uint32_t primitive_slots, primitive_slot, slots_used;
   /* Fragment dispatch (graphics_fragment.c): the draw's n-th fragment
    * batch runs on fragment_sm[n % fragment_sm_count], whatever the
    * number of host threads, so each SM sees the same warps in the same
    * order (and counts the same cache misses) with 1 or 16 workers. Each
    * SM runs the program under a copy of fp.grid, so a fault belongs to
    * the batch that made it. */
   struct ppu_sm *fragment_sm[GFX_FRAGMENT_SMS_MAX];
   struct ppu_grid *fragment_grid; /* [fragment_sm_count]; NULL before the first flush */
   bool fragment_sm_begun[GFX_FRAGMENT_SMS_MAX];
   unsigned fragment_sm_count;
   bool fragment_parallel; /* the host workers may shade batches at once */
   uint64_t fragment_batches;
   struct gfx_fragment_result *fragment_results; /* one per queue entry */
};

/* Checks the state DRAW needs and prepares the draw. False with *fault
 * (nothing drawn, everything released). */
bool gfx_draw_begin(struct gfx_draw *d, struct ppu_graphics_engine *ge,
                    const struct ppu_graphics_state *s, uint64_t pd_pa, struct ppu_fault *fault);

/* Vertex warp of batch b, then its primitives through the raster engine
 * and fragment warps. False with the draw's fault. */
bool gfx_draw_batch(struct gfx_draw *d, const struct gfx_batch *b);

/* Makes grid g the one SM k (0 vertex, 1 fragment) runs, beginning it
 * when the SM had another. False with the draw's fault. */
bool gfx_draw_use_sm(struct gfx_draw *d, unsigned k, const struct ppu_grid *g);

/* Setup's callback: the primitive record of a set-up triangle, written to
 * a free scratch slot (graphics_fragment.c). */
void gfx_primitive_record(void *ctx, const struct raster_triangle *t,
                          const struct raster_window_vertex v[3], const float weight[3][3]);
/* The raster engine's deferred fragment work: fragment warps over queued
 * warp batches of quads on the fragment SMs, on the host workers when the
 * program has no side effects; their outputs are read back for the ROP
 * (graphics_fragment.c). */
void gfx_fragment_shade_batches(void *ctx, struct raster_deferred_batch *batches, unsigned count);
/* Chooses the fragment SMs and the queue (gfx_draw_begin). False when out
 * of host memory. */
bool gfx_fragment_begin(struct gfx_draw *d);
/* Releases the fragment SMs' grids (gfx_draw_end). */
void gfx_fragment_end(struct gfx_draw *d);

/* Writes staged targets back, adds the counters and releases the draw.
 * ok: the draw ran without a fault (a faulted draw writes nothing back).
 * *samples_passed gets ZROP's passing samples. */
bool gfx_draw_end(struct gfx_draw *d, bool ok, uint64_t *samples_passed);

/* Whether the draw asked for PIXEL_ORDER RELAXED and its state makes the
 * order of fragments invisible (rop_order_is_relaxable; counting_samples:
 * an occlusion query is active). This functional engine runs every draw in
 * order, which is always a valid order; a timed engine would skip the
 * position-hazard checks of such draws. */
bool gfx_draw_order_relaxed(const struct gfx_draw *d, bool counting_samples);

#endif
