/* The raster engine's top level for one draw's triangles: clipping engine
 * -> setup -> coarse raster -> hi-Z -> fine raster -> early ZROP -> tile
 * coalescing -> fragment work (a callback: the SM's fragment warps once
 * they are wired) -> late ZROP -> CROP for every bound target, with the
 * hi-Z ranges refreshed from ZROP after each tile. It owns no unit's
 * logic; it wires them in the order docs/graphics-hw.md gives, in
 * primitive order (ORDERED pixels).
 */
#ifndef PPU_RASTER_PIPELINE_H
#define PPU_RASTER_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "raster/raster_clip.h"
#include "raster/raster_coalesce.h"
#include "raster/raster_hiz.h"
#include "raster/raster_setup.h"
#include "rop/rop_crop.h"
#include "rop/rop_zrop.h"

/* What the fragment work of one warp returns per quad: each target's
 * color for its four pixels (or, with per_sample, for each sample of each
 * pixel: sample shading), the coverage after discard and, when the
 * program wrote it (depth_written), the depth of each entry (late ZROP
 * takes it instead of the raster's). */
struct raster_fragment_output {
   struct ppu_texel color[PPU_GFX_COLOR_TARGETS][4];
   uint16_t coverage;
   bool depth_written, per_sample;
   float depth[16];
   struct ppu_texel sample_color[PPU_GFX_COLOR_TARGETS][4][4]; /* [target][sample][pixel] */
};

/* Shades a warp batch: out[i] for batch->quads[i] (coverage starts as the
 * quad's). */
typedef void (*raster_shade_fn)(void *ctx, const struct raster_warp_batch *batch,
                                const struct raster_triangle *const *triangles,
                                struct raster_fragment_output *out);

/* A warp batch queued for deferred fragment work (raster_pipeline_defer):
 * everything its shading and its ROP need once the raster has moved on. */
struct raster_deferred_batch {
   struct raster_warp_batch batch;
   struct raster_triangle triangle; /* every quad's primitive (one per tile visit) */
   const struct raster_triangle *triangles[PPU_GFX_QUADS_PER_WARP]; /* all &triangle */
   struct raster_fragment_output out[PPU_GFX_QUADS_PER_WARP];
   uint64_t tag; /* the pipeline's primitive_tag when the batch was queued */
   bool early;
   /* Late tests: the first and the last batch of a tile visit, so the hi-Z
    * range of tile (tile_x, tile_y) is refreshed after the visit's ZROP. */
   bool tile_start, tile_end;
   int32_t tile_x, tile_y;
};

/* Shades `count` queued batches: fills each one's out[] (coverage starts as
 * the quads'). The batches' ROP work follows in queue order, so the
 * callback may shade them in any order or at once. */
typedef void (*raster_shade_batches_fn)(void *ctx, struct raster_deferred_batch *batches,
                                        unsigned count);

/* Called for every triangle setup accepts, before its tiles are walked
 * (the graphics engine writes its primitive record there): v are the
 * window vertices setup took, in input order, and weight[k][j] is the
 * weight of the primitive's vertex j at input vertex k (clipped vertices,
 * line ends after clipping, point and line corners), so attributes can be
 * interpolated from the primitive's own vertices. */
typedef void (*raster_setup_fn)(void *ctx, const struct raster_triangle *t,
                                const struct raster_window_vertex v[3], const float weight[3][3]);

struct raster_pipeline {
   /* State (from the graphics state decoders). */
   struct raster_clip_state clip;
   struct raster_setup_state setup;
   float viewport_scale[3], viewport_offset[3];
   unsigned samples_log2;
   uint32_t sample_mask;
   struct rop_zs_state zs;
   struct rop_blend_state blend;
   struct rop_surface *color[PPU_GFX_COLOR_TARGETS]; /* NULL: not bound */
   struct rop_surface *depth;                        /* NULL: none */
   struct raster_hiz *hiz;                           /* NULL: no hi-Z */
   uint32_t program_flags;                           /* PPU_GFX_PROGRAM_* */
   uint8_t polygon_mode;                             /* 0 fill, 1 line, 2 point (POLYGON_MODE) */
   float line_width; /* LINE_WIDTH, for lines and polygon mode LINE */
   bool dual_source; /* target 0 blends with target 1's output as its second source */
   raster_shade_fn shade;
   raster_setup_fn on_setup; /* NULL: none */
   void *shade_ctx;          /* passed to shade, shade_batches and on_setup */
   /* Deferred fragment work (raster_pipeline_defer): batches wait in the
    * queue, shade_batches shades them together when it is full or flushed,
    * then ZROP and CROP take their results in queue (primitive) order. */
   raster_shade_batches_fn shade_batches;
   struct raster_deferred_batch *queue;
   unsigned queue_capacity, queued;
   uint64_t primitive_tag;      /* copied into each queued batch (set by on_setup) */
   uint64_t tile_passed_before; /* samples_passed when the current late tile began */
   /* User distances of the next primitive's vertices (NULL: none; only
    * read when clip.clip_distance_mask or cull_distance_mask is not 0). */
   const float (*clip_distance)[PPU_GFX_MAX_CLIP_DISTANCES];
   /* Counters. */
   uint64_t primitives, primitives_culled, tiles, tiles_hiz_culled, quads, warps;
   uint64_t primitives_clipped; /* primitives clipping passed on */
   uint64_t samples_passed;
   uint64_t blends; /* samples CROP blended */
};

/* Draws one clip-space triangle (as its edges or vertices in polygon modes
 * LINE and POINT: those of the clipped polygon, after the facing test,
 * with the polygon's facing; polygon points are 1 pixel). */
void raster_pipeline_triangle(struct raster_pipeline *p, const float position[3][4]);

/* Draws one clip-space line segment of line_width (clipped to near/far,
 * the guard band and the clip distances), and one point of `size` pixels
 * (dropped when outside near/far, behind the eye or outside a clip
 * distance). Each primitive is first discarded when the cull distances
 * say so (raster_clip_culled). */
void raster_pipeline_line(struct raster_pipeline *p, const float position[2][4]);
void raster_pipeline_point(struct raster_pipeline *p, const float position[4], float size);

/* Queues up to `capacity` warp batches for shade_batches instead of
 * shading each one at once through `shade`. Every pixel's ZROP and CROP
 * still happen in primitive order, and hi-Z sees exactly the ranges it
 * sees without the queue (a late-tested tile with queued batches is
 * flushed before hi-Z tests it again), so images and the raster counters
 * are the same for any capacity. False when out of host memory. */
bool raster_pipeline_defer(struct raster_pipeline *p, unsigned capacity);
/* Shades every queued batch and resolves them through ZROP and CROP. The
 * owner calls it before it changes anything a queued batch depends on
 * (state, targets, memory the fragment program reads) and at the end. */
void raster_pipeline_flush(struct raster_pipeline *p);
/* Frees the queue (after a flush; queued batches are dropped). */
void raster_pipeline_release(struct raster_pipeline *p);

#endif
