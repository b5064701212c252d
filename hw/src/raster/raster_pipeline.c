/* Raster engine top level: wires clip, setup, coarse, hi-Z, fine, ZROP,
 * coalescing, fragment work and CROP in primitive order. */
#include "raster/raster_pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "host_bits.h"
#include "raster/raster_coarse.h"
#include "raster/raster_fine.h"
#include "raster/raster_point_line.h"

struct tile_ctx {
   struct raster_pipeline *p;
   const struct raster_triangle *t;
   bool early, hiz_cull;
   struct raster_hiz_format hiz_format;
};

static bool early_tests(const struct raster_pipeline *p)
{
   /* docs/graphics-hw.md "Early or late tests". */
   if (p->program_flags & PPU_GFX_PROGRAM_EARLY_TESTS)
      return true;
   return !(p->program_flags & (PPU_GFX_PROGRAM_WRITES_DEPTH | PPU_GFX_PROGRAM_MAY_DISCARD |
                                PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK | PPU_GFX_PROGRAM_SIDE_EFFECTS));
}

/* Late tests and color for one shaded warp batch. */
static void resolve_batch(struct raster_pipeline *p, const struct raster_warp_batch *b,
                          const struct raster_triangle *t, bool early,
                          const struct raster_fragment_output *out)
{
   for (unsigned i = 0; i < b->count; i++) {
      const struct raster_quad *q = &b->quads[i];
      uint16_t cov = out[i].coverage & q->coverage;
      const float *depth = out[i].depth_written ? out[i].depth : q->depth;
      if (!early && p->depth)
         cov = rop_zrop_quad(&p->zs, p->depth, q->x, q->y, cov, depth, t->front_facing,
                             &p->samples_passed);
      else if (!early)
         p->samples_passed += ppu_popcount32(cov);
      for (unsigned k = 0; k < PPU_GFX_COLOR_TARGETS; k++) {
         /* Dual-source blending: target 1's output is target 0's second
          * source, not a color of its own. */
         if (!p->color[k] || (p->dual_source && k == 1))
            continue;
         if (out[i].per_sample) {
            /* Sample shading: each sample blends its own color. */
            for (unsigned s = 0; s < 4; s++) {
               const struct ppu_texel *src1 =
                   p->dual_source && k == 0 ? out[i].sample_color[1][s] : NULL;
               rop_crop_quad(&p->blend, k, p->color[k], q->x, q->y, cov & (0x1111u << s),
                             out[i].sample_color[k][s], src1);
            }
         } else {
            const struct ppu_texel *src1 = p->dual_source && k == 0 ? out[i].color[1] : NULL;
            rop_crop_quad(&p->blend, k, p->color[k], q->x, q->y, cov, out[i].color[k], src1);
         }
         /* Integer targets and logic ops never blend (rop_crop.h). */
         if (p->blend.target[k].enable && !p->blend.logic_op_enable &&
             p->color[k]->kind != ROP_KIND_UINT && p->color[k]->kind != ROP_KIND_SINT)
            p->blends += ppu_popcount32(cov);
      }
   }
}

static void start_outputs(const struct raster_warp_batch *b, struct raster_fragment_output *out)
{
   for (unsigned i = 0; i < b->count; i++) {
      out[i].coverage = b->quads[i].coverage;
      out[i].depth_written = false;
      out[i].per_sample = false;
   }
}

/* Refreshes tile (tx, ty)'s hi-Z range from the depth target when ZROP
 * wrote depth there since the tile's samples_passed was passed_before;
 * only a tile whose depth changed needs its range read back. */
static void refresh_hiz(struct raster_pipeline *p, int32_t tx, int32_t ty, uint64_t passed_before)
{
   bool depth_changed = p->zs.depth_test && p->zs.depth_write && p->samples_passed != passed_before;
   if (p->hiz && p->depth && depth_changed) {
      float zmin, zmax;
      if (rop_zrop_tile_range(p->depth, tx, ty, &zmin, &zmax))
         raster_hiz_set(p->hiz, tx, ty, zmin, zmax);
   }
}

void raster_pipeline_flush(struct raster_pipeline *p)
{
   if (!p->queued)
      return;
   if (p->shade_batches)
      p->shade_batches(p->shade_ctx, p->queue, p->queued);
   for (unsigned i = 0; i < p->queued; i++) {
      const struct raster_deferred_batch *q = &p->queue[i];
      if (q->tile_start)
         p->tile_passed_before = p->samples_passed;
      resolve_batch(p, &q->batch, &q->triangle, q->early, q->out);
      if (q->tile_end)
         refresh_hiz(p, q->tile_x, q->tile_y, p->tile_passed_before);
   }
   p->queued = 0;
}

bool raster_pipeline_defer(struct raster_pipeline *p, unsigned capacity)
{
   raster_pipeline_release(p);
   p->queue = calloc(capacity ? capacity : 1, sizeof(*p->queue));
   p->queue_capacity = p->queue ? (capacity ? capacity : 1) : 0;
   return p->queue != NULL;
}

void raster_pipeline_release(struct raster_pipeline *p)
{
   free(p->queue);
   p->queue = NULL;
   p->queue_capacity = p->queued = 0;
}

/* Queues a warp batch (flushing a full queue first). */
static void queue_batch(struct raster_pipeline *p, const struct raster_warp_batch *b,
                        const struct raster_triangle *t, bool early, bool tile_start)
{
   if (p->queued == p->queue_capacity)
      raster_pipeline_flush(p);
   struct raster_deferred_batch *q = &p->queue[p->queued++];
   q->batch = *b;
   q->triangle = *t;
   for (unsigned i = 0; i < b->count; i++)
      q->triangles[i] = &q->triangle;
   start_outputs(b, q->out);
   q->tag = p->primitive_tag;
   q->early = early;
   q->tile_start = tile_start;
   q->tile_end = false;
}

/* Fragment work, late tests and color for one warp batch: at once, or
 * queued for deferred fragment work. first_of_tile: the tile visit's
 * first batch. */
static void run_batch(struct raster_pipeline *p, const struct raster_warp_batch *b,
                      const struct raster_triangle *t, bool early, bool first_of_tile)
{
   p->warps++;
   if (p->queue) {
      queue_batch(p, b, t, early, first_of_tile && !early);
      return;
   }
   struct raster_fragment_output out[PPU_GFX_QUADS_PER_WARP];
   const struct raster_triangle *tris[PPU_GFX_QUADS_PER_WARP];
   start_outputs(b, out);
   for (unsigned i = 0; i < b->count; i++)
      tris[i] = t;
   if (p->shade)
      p->shade(p->shade_ctx, b, tris, out);
   resolve_batch(p, b, t, early, out);
}

/* Whether a late-tested visit of tile (tx, ty) still has queued batches:
 * its hi-Z range is not final until they are resolved. */
static bool tile_queued(const struct raster_pipeline *p, int32_t tx, int32_t ty)
{
   for (unsigned i = 0; i < p->queued; i++)
      if (p->queue[i].tile_end && p->queue[i].tile_x == tx && p->queue[i].tile_y == ty)
         return true;
   return false;
}

static bool visit_tile(void *c, int32_t tx, int32_t ty, enum raster_tile_class cls)
{
   struct tile_ctx *ctx = c;
   struct raster_pipeline *p = ctx->p;
   p->tiles++;
   if (ctx->hiz_cull) {
      if (p->queued && !ctx->early && tile_queued(p, tx, ty))
         raster_pipeline_flush(p);
      float lo, hi;
      raster_hiz_triangle_range(ctx->t, tx, ty, &lo, &hi);
      if (!raster_hiz_may_pass(p->hiz, &ctx->hiz_format, tx, ty, p->zs.depth_op, lo, hi)) {
         p->tiles_hiz_culled++;
         return true;
      }
   }
   uint64_t passed_before = p->samples_passed;
   struct raster_quad q[RASTER_QUADS_PER_TILE];
   unsigned n = raster_fine_tile(ctx->t, tx, ty, p->samples_log2, p->sample_mask,
                                 cls == RASTER_TILE_FULL, q);
   struct raster_coalescer co;
   struct raster_warp_batch full;
   raster_coalescer_init(&co, false);
   unsigned batches = 0;
   for (unsigned i = 0; i < n; i++) {
      if (ctx->early) {
         if (p->depth)
            q[i].coverage = rop_zrop_quad(&p->zs, p->depth, q[i].x, q[i].y, q[i].coverage,
                                          q[i].depth, ctx->t->front_facing, &p->samples_passed);
         else
            p->samples_passed += ppu_popcount32(q[i].coverage);
         if (!q[i].coverage)
            continue;
      }
      p->quads++;
      if (raster_coalescer_add(&co, &q[i], (uint32_t)p->primitives, &full))
         run_batch(p, &full, ctx->t, ctx->early, batches++ == 0);
   }
   /* The functional model closes the batch at the tile's end, so hi-Z
    * sees the tile's final depth; a timed model would keep coalescing
    * across tiles and primitives. */
   if (raster_coalescer_flush(&co, &full))
      run_batch(p, &full, ctx->t, ctx->early, batches++ == 0);
   if (p->queue && !ctx->early) {
      /* Late tests: ZROP has not run yet; the tile's range is refreshed
       * when its last batch is resolved, and a full queue shades at once
       * when the pipeline shades each batch as it comes (capacity 1). */
      if (batches) {
         struct raster_deferred_batch *last = &p->queue[p->queued - 1];
         last->tile_end = true;
         last->tile_x = tx;
         last->tile_y = ty;
      }
   } else {
      refresh_hiz(p, tx, ty, passed_before);
   }
   if (p->queue && p->queue_capacity == 1)
      raster_pipeline_flush(p);
   return true;
}

static void depth_format(const struct rop_surface *ds, struct raster_hiz_format *f)
{
   f->unorm = ds && ds->format != PPU_TEX_FORMAT_D32_SFLOAT &&
              ds->format != PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
   unsigned bits = ds && ds->format == PPU_TEX_FORMAT_D16_UNORM ? 16 : 24;
   f->quantum = f->unorm ? 1.0f / (float)((1u << bits) - 1u) : 0.0f;
}

static struct raster_window_vertex project(const struct raster_pipeline *p, const float c[4])
{
   double iw = 1.0 / c[3];
   struct raster_window_vertex w;
   w.x = c[0] * iw * p->viewport_scale[0] + p->viewport_offset[0];
   w.y = c[1] * iw * p->viewport_scale[1] + p->viewport_offset[1];
   w.z = (float)(c[2] * iw * p->viewport_scale[2] + p->viewport_offset[2]);
   w.inverse_w = (float)iw;
   return w;
}

static void init_ctx(struct raster_pipeline *p, struct tile_ctx *ctx)
{
   ctx->p = p;
   ctx->t = NULL;
   ctx->early = early_tests(p);
   ctx->hiz_cull = p->hiz && p->depth && p->depth->has_depth &&
                   rop_zrop_hiz_cull_allowed(&p->zs, p->program_flags);
   depth_format(p->depth, &ctx->hiz_format);
}

/* Walks the tiles of a set-up triangle after telling on_setup about it. */
static void draw_set_up(struct raster_pipeline *p, struct tile_ctx *ctx,
                        const struct raster_triangle *t, const struct raster_window_vertex v[3],
                        const float *const weight[3])
{
   if (p->on_setup) {
      float w[3][3];
      for (unsigned k = 0; k < 3; k++)
         memcpy(w[k], weight[k], sizeof(w[k]));
      p->on_setup(p->shade_ctx, t, v, (const float(*)[3])w);
   }
   ctx->t = t;
   raster_coarse_walk(t, visit_tile, ctx);
}

/* Rasterizes a point or line quadrilateral with the given facing; corner k
 * takes the weights of its endpoint, end_weight[endpoint[k]]. The two
 * triangles are raster_setup_quadrilateral's (corners 0 1 2 and 0 2 3),
 * set up here so each one's corners are known. */
static bool draw_quadrilateral(struct raster_pipeline *p, struct tile_ctx *ctx,
                               const struct raster_quadrilateral *q, bool front,
                               const float end_weight[2][3])
{
   static const uint8_t corners[2][3] = {{0, 1, 2}, {0, 2, 3}};
   struct raster_setup_state no_cull = p->setup;
   no_cull.cull = 0;
   bool drawn = false;
   for (unsigned i = 0; i < 2; i++) {
      struct raster_window_vertex v[3];
      const float *weight[3];
      for (unsigned k = 0; k < 3; k++) {
         v[k] = q->corner[corners[i][k]];
         weight[k] = end_weight[q->endpoint[corners[i][k]]];
      }
      struct raster_triangle t;
      if (!raster_setup_triangle(&no_cull, v, &t))
         continue;
      t.front_facing = front;
      t.point_x = q->point_x;
      t.point_y = q->point_y;
      t.point_size = q->point_size;
      drawn = true;
      draw_set_up(p, ctx, &t, v, weight);
   }
   return drawn;
}

static bool draw_segment(struct raster_pipeline *p, struct tile_ctx *ctx,
                         const struct raster_window_vertex *a, const struct raster_window_vertex *b,
                         bool front, const float *wa, const float *wb)
{
   struct raster_quadrilateral q;
   raster_line_quadrilateral(a, b, p->line_width, &q);
   float w[2][3];
   memcpy(w[0], wa, sizeof(w[0]));
   memcpy(w[1], wb, sizeof(w[1]));
   return draw_quadrilateral(p, ctx, &q, front, (const float(*)[3])w);
}

static bool draw_dot(struct raster_pipeline *p, struct tile_ctx *ctx,
                     const struct raster_window_vertex *a, float size, bool front, const float *wa)
{
   struct raster_quadrilateral q;
   raster_point_quadrilateral(a, size, &q);
   float w[2][3];
   memcpy(w[0], wa, sizeof(w[0]));
   memcpy(w[1], wa, sizeof(w[1]));
   return draw_quadrilateral(p, ctx, &q, front, (const float(*)[3])w);
}

void raster_pipeline_triangle(struct raster_pipeline *p, const float position[3][4])
{
   struct raster_clip_vertex v[RASTER_CLIP_MAX_VERTICES];
   struct raster_clip_state clip = p->clip;
   if (!p->clip_distance)
      clip.clip_distance_mask = 0;
   unsigned n =
       raster_clip_culled(&clip, 3, p->clip_distance) || raster_clip_outside_view(position, 3)
           ? 0
           : raster_clip_triangle(&clip, position, p->clip_distance, v);
   struct tile_ctx ctx;
   init_ctx(p, &ctx);
   struct raster_window_vertex w[RASTER_CLIP_MAX_VERTICES];
   for (unsigned i = 0; i < n; i++)
      w[i] = project(p, v[i].position);
   bool drawn = false;
   p->primitives_clipped += n >= 3;
   if (p->polygon_mode != 0 && n >= 3) {
      /* Facing of the whole polygon from its first non-degenerate fan
       * triangle (a convex polygon's fan triangles share it). */
      struct raster_setup_state facing_only = p->setup;
      facing_only.cull = 0;
      bool found = false, front = true;
      for (unsigned i = 1; i + 1 < n && !found; i++) {
         const struct raster_window_vertex f[3] = {w[0], w[i], w[i + 1]};
         found = !raster_setup_culls(&facing_only, f, &front);
      }
      bool culled = !found || (front && (p->setup.cull & PPU_GFX_CULL_FRONT)) ||
                    (!front && (p->setup.cull & PPU_GFX_CULL_BACK));
      if (!culled) {
         for (unsigned i = 0; i < n; i++) {
            if (p->polygon_mode == 1)
               drawn |= draw_segment(p, &ctx, &w[i], &w[(i + 1) % n], front, v[i].bary,
                                     v[(i + 1) % n].bary);
            else
               drawn |= draw_dot(p, &ctx, &w[i], 1.0f, front, v[i].bary);
         }
      }
      n = 0;
   }
   for (unsigned i = 1; i + 1 < n; i++) {
      const struct raster_window_vertex f[3] = {w[0], w[i], w[i + 1]};
      struct raster_triangle t;
      if (!raster_setup_triangle(&p->setup, f, &t))
         continue;
      drawn = true;
      const float *weight[3] = {v[0].bary, v[i].bary, v[i + 1].bary};
      draw_set_up(p, &ctx, &t, f, weight);
   }
   p->primitives++;
   p->primitives_culled += !drawn;
}

void raster_pipeline_line(struct raster_pipeline *p, const float position[2][4])
{
   struct tile_ctx ctx;
   init_ctx(p, &ctx);
   float t0, t1;
   bool drawn = false;
   if (!raster_clip_culled(&p->clip, 2, p->clip_distance) &&
       !raster_clip_outside_view(position, 2) &&
       raster_clip_line(&p->clip, position, p->clip_distance, &t0, &t1)) {
      p->primitives_clipped++;
      float c[2][4];
      for (unsigned k = 0; k < 4; k++) {
         float d = position[1][k] - position[0][k];
         c[0][k] = position[0][k] + t0 * d;
         c[1][k] = position[0][k] + t1 * d;
      }
      struct raster_window_vertex a = project(p, c[0]), b = project(p, c[1]);
      const float wa[3] = {1.0f - t0, t0, 0.0f}, wb[3] = {1.0f - t1, t1, 0.0f};
      drawn = draw_segment(p, &ctx, &a, &b, true, wa, wb);
   }
   p->primitives++;
   p->primitives_culled += !drawn;
}

void raster_pipeline_point(struct raster_pipeline *p, const float position[4], float size)
{
   struct tile_ctx ctx;
   init_ctx(p, &ctx);
   const float *dist = p->clip_distance ? p->clip_distance[0] : NULL;
   bool drawn = false;
   if (!raster_clip_culled(&p->clip, 1, p->clip_distance) &&
       raster_clip_point(&p->clip, position, dist)) {
      p->primitives_clipped++;
      struct raster_window_vertex a = project(p, position);
      static const float w0[3] = {1.0f, 0.0f, 0.0f};
      float clamped = !(size >= 1.0f)                 ? 1.0f
                      : size > PPU_GFX_MAX_POINT_SIZE ? PPU_GFX_MAX_POINT_SIZE
                                                      : size;
      drawn = draw_dot(p, &ctx, &a, clamped, true, w0);
   }
   p->primitives++;
   p->primitives_culled += !drawn;
}
