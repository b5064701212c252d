/* Fragment work of a draw (docs/graphics-hw.md "Setup", "Fragment work",
 * "Fragment dispatch"): the primitive record setup writes for each
 * triangle, and the fragment warps over the raster engine's queued warp
 * batches, spread over the fragment SMs and run by the host workers:
 * launch registers, outputs read from the exited lanes, discard, sample
 * mask, depth, alpha to coverage and to one, and sample shading (one warp
 * per sample index the batch covers, each quad in it once). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compute/compute_engine.h"
#include "compute/sm_graphics.h"
#include "compute/sm_operands.h" /* f32_of, u32_of */
#include "fault.h"
#include "graphics/graphics_draw.h"
#include "raster/raster_fine.h"
#include "rop/rop_coverage.h"

/* Value of attribute slot s, component c of the primitive's vertex j. */
static float attribute(const struct gfx_draw *d, unsigned j, unsigned s, unsigned c)
{
   if (s >= d->vp.desc.attribute_count)
      return 0.0f; /* not written by the vertex program */
   const float *a = (const float *)(d->records + (size_t)d->current->slot[j] * d->vertex_stride +
                                    sizeof(struct ppu_gfx_vertex_header));
   return a[4 * s + c];
}

/* gl_PointCoord as the planes of one slot (x = s, y = t, z = 0, w = 1), so
 * the fragment program evaluates it like a noperspective input: Vulkan
 * "Basic Point Rasterization", s = 1/2 + (x_f - x_d) / size and
 * t = 1/2 + (y_f - y_d) / size, with (x_f, y_f) the fragment's position
 * (its pixel centre, or its sample with sample shading) and (x_d, y_d) the
 * point's centre; the origin is the upper left. As a plane relative to
 * the record's origin: a = 1 / size, c = 1/2 + (origin - x_d) / size.
 * Lines and triangles have no point coordinate (Vulkan leaves it
 * undefined): they get (0, 0, 0, 1). */
static void point_coord_planes(const struct raster_triangle *t, struct ppu_gfx_plane pl[4])
{
   pl[0] = pl[1] = pl[2] = (struct ppu_gfx_plane){0.0f, 0.0f, 0.0f};
   pl[3] = (struct ppu_gfx_plane){0.0f, 0.0f, 1.0f};
   if (t->point_size <= 0.0f)
      return;
   double inv = 1.0 / t->point_size;
   pl[0] = (struct ppu_gfx_plane){(float)inv, 0.0f,
                                  (float)(0.5 + ((double)t->origin_x - t->point_x) * inv)};
   pl[1] = (struct ppu_gfx_plane){0.0f, (float)inv,
                                  (float)(0.5 + ((double)t->origin_y - t->point_y) * inv)};
}

/* Takes a free primitive record slot for the triangle being set up; when
 * queued fragment work holds every slot, it is shaded first. */
static uint64_t take_slot(struct gfx_draw *d)
{
   if (d->slots_used == d->primitive_slots) {
      raster_pipeline_flush(&d->pipe);
      d->slots_used = 0;
   }
   d->primitive_slot = d->slots_used++;
   /* What the queued batches of the primitive need: slot and id. */
   d->pipe.primitive_tag = d->primitive_slot | (uint64_t)d->current->id << 32;
   return d->scratch_va + (uint64_t)d->primitive_slot * d->primitive_stride;
}

void gfx_primitive_record(void *ctx, const struct raster_triangle *t,
                          const struct raster_window_vertex v[3], const float weight[3][3])
{
   struct gfx_draw *d = ctx;
   if (d->fault->kind != PPU_FAULT_NONE)
      return;
   uint64_t record_va = take_slot(d);
   struct ppu_gfx_primitive_header *h = (struct ppu_gfx_primitive_header *)d->primitive;
   uint32_t count = d->fp.desc.attribute_count;
   memset(h, 0, sizeof(*h));
   h->origin_x = t->origin_x;
   h->origin_y = t->origin_y;
   h->depth = (struct ppu_gfx_plane){t->z_a, t->z_b, t->z_c};
   const float iw[3] = {v[0].inverse_w, v[1].inverse_w, v[2].inverse_w};
   h->inverse_w = raster_setup_plane(t, iw);
   h->depth_bias = t->depth_bias;
   h->flags = (t->front_facing ? PPU_GFX_PRIMITIVE_FRONT_FACING : 0) |
              (d->viewport & PPU_GFX_PRIMITIVE_VIEWPORT_MASK) << PPU_GFX_PRIMITIVE_VIEWPORT_SHIFT |
              (d->layer & PPU_GFX_PRIMITIVE_LAYER_MASK) << PPU_GFX_PRIMITIVE_LAYER_SHIFT;
   h->primitive_id = d->current->id;
   h->attribute_count = count;
   struct ppu_gfx_plane *planes = (struct ppu_gfx_plane *)(h + 1);
   unsigned n = d->current_vertices;
   unsigned provoking = 0;
   for (unsigned j = 0; j < n; j++)
      if (d->current->slot[j] == d->current->provoking)
         provoking = j;
   for (unsigned s = 0; s < count; s++) {
      if ((d->fp.desc.flags & PPU_GFX_PROGRAM_POINT_COORD) && s == d->fp.desc.point_coord_slot) {
         point_coord_planes(t, &planes[4 * s]);
         continue;
      }
      unsigned mode = (unsigned)(d->fp.desc.interpolation >> (2 * s)) & 3u;
      for (unsigned c = 0; c < 4; c++) {
         struct ppu_gfx_plane *pl = &planes[4 * s + c];
         if (mode == PPU_GFX_INTERP_FLAT) {
            *pl = (struct ppu_gfx_plane){0.0f, 0.0f, attribute(d, provoking, s, c)};
            continue;
         }
         float val[3];
         for (unsigned k = 0; k < 3; k++) {
            double sum = 0.0;
            for (unsigned j = 0; j < n; j++)
               sum += (double)weight[k][j] * attribute(d, j, s, c);
            /* Perspective slots hold planes of attribute / w. */
            val[k] = (float)(mode == PPU_GFX_INTERP_PERSPECTIVE ? sum * v[k].inverse_w : sum);
         }
         *pl = raster_setup_plane(t, val);
      }
   }
   ppu_mmu_write(&d->ge->mmu, d->pd_pa, record_va, d->primitive, d->primitive_stride, d->fault);
}

/* Where one queued batch is shaded: its SM and that SM's grid, the
 * batch's primitive record and id, and its result. */
struct fragment_batch {
   const struct gfx_draw *d;
   struct ppu_sm *sm;
   struct ppu_grid *grid;
   uint64_t record_va;
   uint32_t primitive_id;
   struct gfx_fragment_result *result;
};

/* Launches and runs one fragment warp over the quads of qmask (bit i:
 * quad i) at sample `sample` (-1: pixel centres, every covered sample);
 * lane 4i + p is pixel p of quad i. NULL when the warp faulted. */
static struct ppu_warp *run_warp(const struct fragment_batch *fb, const struct raster_warp_batch *b,
                                 const struct raster_triangle *const *tris, uint32_t qmask,
                                 int sample)
{
   const struct gfx_draw *d = fb->d;
   uint32_t lanes = 0;
   for (unsigned i = 0; i < b->count; i++)
      if (qmask & (1u << i))
         lanes |= 0xfu << (4 * i);
   struct ppu_warp *w = ppu_sm_launch_graphics_warp(fb->sm, lanes);
   if (!w)
      return NULL; /* not reached: each batch's warps run one at a time */
   const struct ppu_gfx_program *fp = &d->fp.desc;
   float ox = 0.5f, oy = 0.5f;
   if (sample >= 0) {
      ox = raster_sample_positions_4x[sample][0] / (float)RASTER_SUBPIXEL_ONE;
      oy = raster_sample_positions_4x[sample][1] / (float)RASTER_SUBPIXEL_ONE;
   }
   for (unsigned i = 0; i < b->count; i++) {
      if (!(qmask & (1u << i)))
         continue;
      const struct raster_quad *q = &b->quads[i];
      const struct raster_triangle *t = tris[i];
      for (unsigned px = 0; px < 4; px++) {
         unsigned l = 4 * i + px;
         int32_t x = q->x + (int32_t)(px & 1u), y = q->y + (int32_t)(px >> 1);
         uint32_t cov = (q->coverage >> (4 * px)) & 0xfu;
         if (sample >= 0)
            cov &= 1u << sample;
         float dx = (float)(x - t->origin_x) + ox, dy = (float)(y - t->origin_y) + oy;
         float z =
             sample >= 0 ? q->depth[4 * px + (unsigned)sample] : raster_depth_from_plane(t, dx, dy);
         w->reg[0][l] = (uint32_t)x | (uint32_t)y << 16;
         w->reg[1][l] = cov | (cov ? 0u : 0x10u) | (t->front_facing ? 0x20u : 0u) |
                        (sample >= 0 ? (uint32_t)sample << 8 : 0u);
         w->reg[2][l] = (uint32_t)fb->record_va;
         w->reg[3][l] = (uint32_t)(fb->record_va >> 32);
         w->reg[4][l] = u32_of(dx);
         w->reg[5][l] = u32_of(dy);
         w->reg[6][l] = u32_of(z);
         w->reg[7][l] = fb->primitive_id;
         if (fp->flags & PPU_GFX_PROGRAM_MAY_DISCARD)
            w->reg[PPU_GFX_FRAGMENT_COVERAGE_REG][l] = cov;
         fb->result->helper_lanes += cov == 0;
         fb->result->fragment_lanes += cov != 0;
      }
   }
   fb->result->warps++;
   return ppu_sm_run_until_idle(fb->sm, fb->grid) ? w : NULL;
}

/* Lane l's outputs: colors of the written targets into color[target]
 * (alpha 1 with alpha to one), depth into *z; returns the samples (bits
 * 3..0) the program kept: discard (R34) and sample mask (R33). */
static uint32_t lane_outputs(const struct gfx_draw *d, const struct ppu_warp *w, unsigned l,
                             struct ppu_texel *color, size_t color_stride, float *z)
{
   const struct ppu_gfx_program *fp = &d->fp.desc;
   /* With dual-source blending target 1's registers are the second source. */
   uint32_t outputs = fp->output_mask | (fp->flags & PPU_GFX_PROGRAM_DUAL_SOURCE ? 1u << 1 : 0u);
   bool alpha_to_one = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 2u;
   for (unsigned k = 0; k < PPU_GFX_COLOR_TARGETS; k++) {
      if (!(outputs & (1u << k)))
         continue;
      struct ppu_texel *c = (struct ppu_texel *)((char *)color + k * color_stride);
      for (unsigned i = 0; i < 4; i++)
         c->u[i] = w->reg[4 * k + i][l];
      if (alpha_to_one)
         c->f[3] = 1.0f;
   }
   uint32_t keep = 0xfu;
   if (fp->flags & PPU_GFX_PROGRAM_MAY_DISCARD)
      keep &= w->reg[PPU_GFX_FRAGMENT_COVERAGE_REG][l];
   if (fp->flags & PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK)
      keep &= w->reg[PPU_GFX_FRAGMENT_SAMPLE_MASK_REG][l];
   /* register_count covers R32 only when the program writes depth. */
   if (fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH)
      *z = f32_of(w->reg[PPU_GFX_FRAGMENT_DEPTH_REG][l]);
   return keep;
}

static float clamp_depth(const struct raster_triangle *t, float z)
{
   if (t->depth_clamp)
      z = z < t->clamp_min ? t->clamp_min : z > t->clamp_max ? t->clamp_max : z;
   return z;
}

/* One warp for the whole batch at pixel centres. */
static bool shade_pixels(const struct fragment_batch *fb, const struct raster_warp_batch *b,
                         const struct raster_triangle *const *tris,
                         struct raster_fragment_output *out)
{
   const struct gfx_draw *d = fb->d;
   const struct ppu_gfx_program *fp = &d->fp.desc;
   struct ppu_warp *w = run_warp(fb, b, tris, (1u << b->count) - 1u, -1);
   if (!w)
      return false;
   bool writes_depth = fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH;
   bool a2c = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 1u;
   for (unsigned i = 0; i < b->count; i++) {
      uint16_t cov = out[i].coverage;
      float alpha[4];
      for (unsigned px = 0; px < 4; px++) {
         unsigned l = 4 * i + px;
         float z = 0.0f;
         uint32_t keep = lane_outputs(d, w, l, &out[i].color[0][px], sizeof(out[i].color[0]), &z);
         alpha[px] = f32_of(w->reg[3][l]); /* target 0's alpha, before alpha to one */
         cov &= (uint16_t) ~((~keep & 0xfu) << (4 * px));
         for (unsigned s = 0; writes_depth && s < 4; s++)
            out[i].depth[4 * px + s] = clamp_depth(tris[i], z);
      }
      if (a2c)
         cov = rop_quad_coverage(cov, alpha, d->pipe.samples_log2, true, 0xfu);
      out[i].coverage = cov;
      out[i].depth_written = writes_depth;
   }
   return true;
}

/* Sample shading: a warp per sample index, holding the quads that cover
 * it; each sample gets its own colors, depth and coverage. */
static bool shade_samples(const struct fragment_batch *fb, const struct raster_warp_batch *b,
                          const struct raster_triangle *const *tris,
                          struct raster_fragment_output *out)
{
   const struct gfx_draw *d = fb->d;
   const struct ppu_gfx_program *fp = &d->fp.desc;
   bool writes_depth = fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH;
   bool a2c = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 1u;
   uint16_t survived[PPU_GFX_QUADS_PER_WARP] = {0};
   for (unsigned s = 0; s < 4; s++) {
      uint32_t qmask = 0;
      for (unsigned i = 0; i < b->count; i++)
         if (out[i].coverage & (0x1111u << s))
            qmask |= 1u << i;
      if (!qmask)
         continue;
      struct ppu_warp *w = run_warp(fb, b, tris, qmask, (int)s);
      if (!w)
         return false;
      for (unsigned i = 0; i < b->count; i++) {
         if (!(qmask & (1u << i)))
            continue;
         for (unsigned px = 0; px < 4; px++) {
            unsigned l = 4 * i + px;
            float z = 0.0f;
            uint32_t keep = lane_outputs(d, w, l, &out[i].sample_color[0][s][px],
                                         sizeof(out[i].sample_color[0]), &z);
            if (a2c)
               keep &= rop_alpha_to_coverage_mask(f32_of(w->reg[3][l]), 2);
            if (keep & (1u << s))
               survived[i] |= (uint16_t)(out[i].coverage & (1u << (4 * px + s)));
            if (writes_depth)
               out[i].depth[4 * px + s] = clamp_depth(tris[i], z);
         }
      }
   }
   for (unsigned i = 0; i < b->count; i++) {
      out[i].coverage = survived[i];
      out[i].per_sample = true;
      out[i].depth_written = writes_depth;
   }
   return true;
}

/* One queued batch on its SM; a grid that faulted or was cancelled before
 * it shades nothing (the ROP then takes no coverage from it or after it). */
static void shade_batch(const struct fragment_batch *fb, struct raster_deferred_batch *q)
{
   *fb->result = (struct gfx_fragment_result){0};
   const struct gfx_draw *d = fb->d;
   if (ppu_grid_aborted(fb->grid))
      return;
   fb->result->ok = d->s->word[PPU_GFX_SAMPLE_SHADING] && d->pipe.samples_log2
                        ? shade_samples(fb, &q->batch, q->triangles, q->out)
                        : shade_pixels(fb, &q->batch, q->triangles, q->out);
}

/* The batches of one flush and which of the fragment SMs a worker takes
 * next. */
struct fragment_flush {
   struct gfx_draw *d;
   struct raster_deferred_batch *batches;
   unsigned count;
   _Atomic unsigned next_sm;
};

static struct fragment_batch batch_on_sm(const struct fragment_flush *f, unsigned j)
{
   struct gfx_draw *d = f->d;
   unsigned s = (unsigned)((d->fragment_batches + j) % d->fragment_sm_count);
   uint64_t slot = (uint32_t)f->batches[j].tag;
   return (struct fragment_batch){d,
                                  d->fragment_sm[s],
                                  &d->fragment_grid[s],
                                  d->scratch_va + slot * d->primitive_stride,
                                  (uint32_t)(f->batches[j].tag >> 32),
                                  &d->fragment_results[j]};
}

/* A worker's share: whole SMs, each running its batches in queue order. */
static void shade_on_workers(void *arg)
{
   struct fragment_flush *f = arg;
   struct gfx_draw *d = f->d;
   unsigned n = d->fragment_sm_count;
   for (;;) {
      unsigned s = atomic_fetch_add_explicit(&f->next_sm, 1, memory_order_relaxed);
      if (s >= n)
         return;
      unsigned first = (unsigned)((s + n - d->fragment_batches % n) % n);
      for (unsigned j = first; j < f->count; j += n) {
         struct fragment_batch fb = batch_on_sm(f, j);
         shade_batch(&fb, &f->batches[j]);
      }
   }
}

/* Makes each fragment SM run its copy of the fragment program's grid. */
static bool use_fragment_sms(struct gfx_draw *d)
{
   if (!gfx_draw_use_sm(d, 1, &d->fragment_grid[0]))
      return false;
   for (unsigned s = 1; s < d->fragment_sm_count; s++) {
      if (d->fragment_sm_begun[s])
         continue;
      if (!ppu_sm_begin_grid(d->fragment_sm[s], &d->fragment_grid[s])) {
         ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                       "out of host memory for SM %u's warps", d->fragment_sm[s]->id);
         return false;
      }
      d->fragment_sm_begun[s] = true;
   }
   return true;
}

/* Copies of the fragment program's grid, one per fragment SM, made at the
 * first flush (the grid's cancel flag is set after gfx_draw_begin). */
static bool make_fragment_grids(struct gfx_draw *d)
{
   if (d->fragment_grid)
      return true;
   d->fragment_grid = calloc(d->fragment_sm_count, sizeof(*d->fragment_grid));
   if (!d->fragment_grid) {
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "out of host memory for the fragment SMs");
      return false;
   }
   for (unsigned s = 0; s < d->fragment_sm_count; s++) {
      struct ppu_grid *g = &d->fragment_grid[s];
      memcpy(g, d->fp.grid, sizeof(*g));
      atomic_store_explicit(&g->warp_instructions, 0, memory_order_relaxed);
      atomic_store_explicit(&g->abort, false, memory_order_relaxed);
      g->faulted = false;
      pthread_mutex_init(&g->fault_lock, NULL);
   }
   return true;
}

void gfx_fragment_shade_batches(void *ctx, struct raster_deferred_batch *batches, unsigned count)
{
   struct gfx_draw *d = ctx;
   bool ok = d->fault->kind == PPU_FAULT_NONE && !ppu_grid_aborted(d->fp.grid) &&
             make_fragment_grids(d) && use_fragment_sms(d);
   unsigned failed = 0; /* the first batch that did not shade */
   if (ok) {
      struct fragment_flush f = {d, batches, count, 0};
      if (d->fragment_parallel && count > 1) {
         ppu_compute_engine_run_task(d->ge->compute, shade_on_workers, &f);
      } else {
         /* One host thread: queue order, on the same SMs, and no warp
          * after one that faulted (its side effects would show). */
         for (unsigned j = 0; j < count; j++) {
            struct fragment_batch fb = batch_on_sm(&f, j);
            shade_batch(&fb, &batches[j]);
            if (!fb.result->ok) {
               for (unsigned k = j + 1; k < count; k++)
                  d->fragment_results[k] = (struct gfx_fragment_result){0};
               break;
            }
         }
      }
      while (failed < count && d->fragment_results[failed].ok)
         failed++;
      /* Counters as one thread shading in queue order would count them:
       * up to and including the batch that faulted. */
      for (unsigned j = 0; j < count && j <= failed; j++) {
         d->fragment_warps += d->fragment_results[j].warps;
         d->helper_lanes += d->fragment_results[j].helper_lanes;
         d->fragment_lanes += d->fragment_results[j].fragment_lanes;
      }
      if (failed < count) {
         /* The batch's own SM grid holds its fault (a later batch's SM
          * may have faulted too: it comes second in queue order). */
         struct fragment_batch fb = batch_on_sm(&f, failed);
         if (fb.grid->faulted)
            ppu_grid_report_fault(d->fp.grid, &fb.grid->fault);
      }
      d->fragment_batches += count;
   }
   /* A fault: the draw stops after this primitive; nothing more lands. */
   for (unsigned j = failed; j < count; j++)
      for (unsigned i = 0; i < batches[j].batch.count; i++)
         batches[j].out[i].coverage = 0;
}

bool gfx_fragment_begin(struct gfx_draw *d)
{
   if (!d->fp.grid)
      return true;
   struct ppu_compute_engine *ce = d->ge->compute;
   /* Timing mode shades one batch at a time on SM 1, as it always has. */
   unsigned sms = ce->timing || ce->sm_count == 1 ? 1u : ce->sm_count - 1;
   d->fragment_sm_count = sms < GFX_FRAGMENT_SMS_MAX ? sms : GFX_FRAGMENT_SMS_MAX;
   d->fragment_sm[0] = &ce->sm[ce->sm_count > 1 ? 1 : 0]; /* d->sm[1] */
   for (unsigned s = 1; s < d->fragment_sm_count; s++)
      d->fragment_sm[s] = &ce->sm[1 + s];
   /* Side effects (stores, atomics) happen in queue order on one thread. */
   d->fragment_parallel =
       !ce->timing && ce->worker_count > 1 && !(d->fp.desc.flags & PPU_GFX_PROGRAM_SIDE_EFFECTS);
   unsigned queue = ce->timing ? 1u : GFX_FRAGMENT_QUEUE;
   d->fragment_results = calloc(queue, sizeof(*d->fragment_results));
   if (!d->fragment_results || !raster_pipeline_defer(&d->pipe, queue)) {
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "out of host memory for the fragment queue");
      return false;
   }
   return true;
}

void gfx_fragment_end(struct gfx_draw *d)
{
   for (unsigned s = 1; s < d->fragment_sm_count; s++)
      if (d->fragment_sm_begun[s])
         d->fragment_sm[s]->grid = NULL;
   if (d->fragment_grid)
      for (unsigned s = 0; s < d->fragment_sm_count; s++)
         pthread_mutex_destroy(&d->fragment_grid[s].fault_lock);
   free(d->fragment_grid);
   free(d->fragment_results);
   d->fragment_grid = NULL;
   d->fragment_results = NULL;
   d->fragment_sm_count = 0;
}
