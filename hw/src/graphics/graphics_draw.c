/* A draw: state checks, programs, targets, vertex warps, primitives into
 * the raster engine (fragment work: graphics_fragment.c). */
#include "graphics/graphics_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/sm_graphics.h"
#include "fault.h"
#include "raster/raster_assembly.h"
#include "rop/rop_order.h"

#define REJECT(...)                                                                                \
   do {                                                                                            \
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS, __VA_ARGS__);        \
      return false;                                                                                \
   } while (0)

/* The raster engine's per-viewport state (viewport vp of the state). */
static void use_viewport(struct gfx_draw *d, unsigned vp)
{
   const struct ppu_graphics_state *s = d->s;
   struct raster_pipeline *p = &d->pipe;
   vp %= PPU_GFX_VIEWPORTS;
   d->viewport = vp;
   ppu_graphics_state_clip(s, vp, &p->clip);
   ppu_graphics_state_setup(s, vp, &p->setup);
   for (unsigned a = 0; a < 3; a++) {
      p->viewport_scale[a] =
          ppu_graphics_state_float(s, PPU_GFX_VIEWPORT(vp) + PPU_GFX_VIEWPORT_SCALE_X + a);
      p->viewport_offset[a] =
          ppu_graphics_state_float(s, PPU_GFX_VIEWPORT(vp) + PPU_GFX_VIEWPORT_OFFSET_X + a);
   }
}

/* Maps the targets the draw touches: the color targets the fragment
 * program writes, and the depth/stencil target when a test uses it. */
static bool map_targets(struct gfx_draw *d)
{
   const struct ppu_graphics_state *s = d->s;
   struct raster_pipeline *p = &d->pipe;
   unsigned samples_log2 = s->word[PPU_GFX_SAMPLES_LOG2];
   uint32_t outputs = d->fp.grid ? d->fp.desc.output_mask : 0;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++) {
      char what[24];
      snprintf(what, sizeof(what), "COLOR_TARGET(%u)", i);
      if (!(outputs & (1u << i)) || (p->dual_source && i == 1)) /* the second source is no target */
         continue;
      if (!gfx_target_map(&d->ge->mmu, d->pd_pa, s, PPU_GFX_COLOR_TARGET(i), d->layer, samples_log2,
                          what, &d->color[i], d->fault))
         return false;
      if (d->color[i].bound && (d->color[i].surface.has_depth || d->color[i].surface.has_stencil))
         REJECT("COLOR_TARGET(%u) has a depth/stencil format", i);
      p->color[i] = d->color[i].bound ? &d->color[i].surface : NULL;
   }
   if (p->zs.depth_test || p->zs.stencil_test || p->zs.depth_bounds) {
      if (!gfx_target_map(&d->ge->mmu, d->pd_pa, s, PPU_GFX_DEPTH_TARGET_BASE, d->layer,
                          samples_log2, "DEPTH_TARGET", &d->depth, d->fault))
         return false;
      if (d->depth.bound && !d->depth.surface.has_depth && !d->depth.surface.has_stencil)
         REJECT("DEPTH_TARGET has a color format");
      p->depth = d->depth.bound ? &d->depth.surface : NULL;
   }
   if (p->depth && p->depth->has_depth && p->zs.depth_test) {
      /* Hi-Z starts unknown for every draw: the target may have been
       * written by anything since the last one. */
      d->has_hiz = raster_hiz_init(&d->hiz, p->depth->width, p->depth->height);
      p->hiz = d->has_hiz ? &d->hiz : NULL;
   }
   return true;
}

/* Scratch holds one batch's vertex records and one primitive record. */
static bool check_scratch(struct gfx_draw *d)
{
   const uint32_t *w = d->s->word;
   d->scratch_va = (uint64_t)w[PPU_GFX_SCRATCH_ADDR_HI] << 32 | w[PPU_GFX_SCRATCH_ADDR_LO];
   uint32_t fragment_attributes = d->fp.grid ? d->fp.desc.attribute_count : 0;
   d->vertex_stride = PPU_GFX_VERTEX_STRIDE(d->vp.desc.attribute_count);
   d->primitive_stride = PPU_GFX_PRIMITIVE_STRIDE(fragment_attributes);
   uint64_t need = (uint64_t)PPU_WARP_SIZE * d->vertex_stride + d->primitive_stride;
   need = (need + 255) & ~255ull;
   if (d->scratch_va % 256 || w[PPU_GFX_SCRATCH_SIZE] < need)
      REJECT("scratch at 0x%llx of %u bytes: must be 256-byte aligned and hold %llu bytes (32 "
             "vertex records and a primitive record)",
             (unsigned long long)d->scratch_va, w[PPU_GFX_SCRATCH_SIZE], (unsigned long long)need);
   /* Primitive records go to slots over the whole scratch: the vertex
    * records are read back before any primitive of their batch is set up. */
   d->primitive_slots = w[PPU_GFX_SCRATCH_SIZE] / d->primitive_stride;
   d->records = malloc((size_t)PPU_WARP_SIZE * d->vertex_stride);
   d->primitive = malloc(d->primitive_stride);
   if (!d->records || !d->primitive)
      REJECT("out of host memory for the draw's records");
   return true;
}

static void release(struct gfx_draw *d)
{
   gfx_program_release(&d->vp);
   gfx_program_release(&d->fp);
   if (d->has_hiz)
      raster_hiz_free(&d->hiz);
   d->has_hiz = false;
   free(d->records);
   free(d->primitive);
   d->records = d->primitive = NULL;
   raster_pipeline_release(&d->pipe);
   gfx_fragment_end(d);
}

bool gfx_draw_begin(struct gfx_draw *d, struct ppu_graphics_engine *ge,
                    const struct ppu_graphics_state *s, uint64_t pd_pa, struct ppu_fault *fault)
{
   memset(d, 0, sizeof(*d));
   d->ge = ge;
   d->s = s;
   d->pd_pa = pd_pa;
   d->fault = fault;
   memset(fault, 0, sizeof(*fault)); /* kind NONE: the draw tests it to stop early */
   const uint32_t *w = s->word;
   struct ppu_compute_engine *ce = ge->compute;
   struct raster_pipeline *p = &d->pipe;
   bool ok =
       gfx_program_load(ce, &ge->mmu, pd_pa,
                        (uint64_t)w[PPU_GFX_VERTEX_PROGRAM_HI] << 32 | w[PPU_GFX_VERTEX_PROGRAM_LO],
                        false, &d->vp, fault) &&
       gfx_program_load(ce, &ge->mmu, pd_pa,
                        (uint64_t)w[PPU_GFX_FRAGMENT_PROGRAM_HI] << 32 |
                            w[PPU_GFX_FRAGMENT_PROGRAM_LO],
                        true, &d->fp, fault);
   if (ok) {
      use_viewport(d, 0);
      p->samples_log2 = w[PPU_GFX_SAMPLES_LOG2];
      p->sample_mask = w[PPU_GFX_SAMPLE_MASK];
      ppu_graphics_state_zs(s, &p->zs);
      ppu_graphics_state_blend(s, &p->blend);
      p->polygon_mode = (uint8_t)w[PPU_GFX_POLYGON_MODE];
      p->line_width = ppu_graphics_state_float(s, PPU_GFX_LINE_WIDTH);
      if (d->fp.grid) {
         p->program_flags = d->fp.desc.flags;
         /* Alpha to coverage changes coverage after the program: late
          * tests, as for a discarding program. */
         if (w[PPU_GFX_ALPHA_TO_COVERAGE] & 1u)
            p->program_flags |= PPU_GFX_PROGRAM_MAY_DISCARD;
         p->dual_source = d->fp.desc.flags & PPU_GFX_PROGRAM_DUAL_SOURCE;
         p->shade_batches = gfx_fragment_shade_batches;
         p->on_setup = gfx_primitive_record;
      }
      p->shade_ctx = d;
      /* Primitives that write no layer are at LAYER_OFFSET. */
      d->layer = w[PPU_GFX_LAYER_OFFSET];
      ok = check_scratch(d) && map_targets(d) && gfx_fragment_begin(d);
   }
   if (!ok) {
      for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++)
         gfx_target_unmap(&ge->mmu, pd_pa, &d->color[i], false, NULL);
      gfx_target_unmap(&ge->mmu, pd_pa, &d->depth, false, NULL);
      release(d);
      return false;
   }
   /* Vertex warps on SM 0, fragment warps on SM 1 (the same SM on a
    * one-SM chip): each keeps its program's grid for the whole draw. */
   d->sm[0] = &ce->sm[0];
   d->sm[1] = &ce->sm[ce->sm_count > 1 ? 1 : 0];
   return true;
}

bool gfx_draw_use_sm(struct gfx_draw *d, unsigned k, const struct ppu_grid *g)
{
   struct ppu_sm *sm = d->sm[k];
   unsigned other = 1 - k;
   if (d->sm_grid[k] == g)
      return true;
   if (!ppu_sm_begin_grid(sm, g)) {
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "out of host memory for SM %u's warps", sm->id);
      return false;
   }
   d->sm_grid[k] = g;
   if (d->sm[other] == sm)
      d->sm_grid[other] = g;
   return true;
}

/* Runs the warp already launched on SM k to its end. */
static bool run_sm(struct gfx_draw *d, unsigned k, struct ppu_grid *g)
{
   if (ppu_sm_run_until_idle(d->sm[k], g))
      return true;
   *d->fault = g->fault;
   d->fault->engine = PPU_ENGINE_GRAPHICS; /* the SM names the program's PC */
   return false;
}

static const struct ppu_gfx_vertex_header *record(const struct gfx_draw *d, unsigned slot)
{
   return (const struct ppu_gfx_vertex_header *)(d->records + (size_t)slot * d->vertex_stride);
}

static bool vertex_warp(struct gfx_draw *d, const struct gfx_batch *b)
{
   struct ppu_grid *g = d->vp.grid;
   if (!gfx_draw_use_sm(d, 0, g))
      return false;
   /* The records start as defaults (point size 1, layer, viewport and clip
    * distances 0, attributes 0), so a program writes only what it outputs. */
   memset(d->records, 0, (size_t)b->count * d->vertex_stride);
   for (uint32_t l = 0; l < b->count; l++)
      ((struct ppu_gfx_vertex_header *)(d->records + (size_t)l * d->vertex_stride))->point_size =
          1.0f;
   if (!ppu_mmu_write(&d->ge->mmu, d->pd_pa, d->scratch_va, d->records,
                      (uint64_t)b->count * d->vertex_stride, d->fault))
      return false;
   uint32_t lanes = b->count >= PPU_WARP_SIZE ? 0xffffffffu : (1u << b->count) - 1u;
   struct ppu_warp *w = ppu_sm_launch_graphics_warp(d->sm[0], lanes);
   const struct gfx_draw_params *p = &d->params;
   uint32_t base_vertex = p->indexed ? (uint32_t)p->vertex_offset : p->first;
   for (uint32_t l = 0; l < b->count; l++) {
      uint64_t va = d->scratch_va + (uint64_t)l * d->vertex_stride;
      w->reg[0][l] = b->vertex[l];
      w->reg[1][l] = b->instance;
      w->reg[2][l] = (uint32_t)va;
      w->reg[3][l] = (uint32_t)(va >> 32);
      w->reg[4][l] = p->draw_index;
      w->reg[5][l] = p->first_instance;
      w->reg[6][l] = base_vertex;
   }
   d->vertex_warps++;
   d->vertex_lanes += b->count;
   if (!run_sm(d, 0, g))
      return false;
   return ppu_mmu_read(&d->ge->mmu, d->pd_pa, d->scratch_va, d->records,
                       (uint64_t)b->count * d->vertex_stride, d->fault);
}

/* Moves the draw's targets to layer `layer` of their LAYER (a primitive's
 * layer word): what was drawn is written back, the targets are mapped at
 * the new layer, and hi-Z starts unknown there. False with the fault. */
static bool use_layer(struct gfx_draw *d, uint32_t layer)
{
   struct raster_pipeline *p = &d->pipe;
   bool ok = true;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++) {
      ok = gfx_target_unmap(&d->ge->mmu, d->pd_pa, &d->color[i], ok, d->fault) && ok;
      p->color[i] = NULL;
   }
   ok = gfx_target_unmap(&d->ge->mmu, d->pd_pa, &d->depth, ok, d->fault) && ok;
   p->depth = NULL;
   if (d->has_hiz)
      raster_hiz_free(&d->hiz);
   d->has_hiz = false;
   p->hiz = NULL;
   d->layer = layer;
   return ok && map_targets(d);
}

/* One primitive of the batch into the raster engine. */
static void rasterize(struct gfx_draw *d, const struct gfx_batch_primitive *prim, unsigned n)
{
   struct raster_pipeline *p = &d->pipe;
   const struct ppu_gfx_vertex_header *pv = record(d, prim->provoking);
   /* The provoking vertex's layer (plus LAYER_OFFSET) picks the targets'
    * layer; one at or beyond LAYER_COUNT has no memory behind it: the
    * primitive goes. */
   uint32_t layers = d->s->word[PPU_GFX_LAYER_COUNT] ? d->s->word[PPU_GFX_LAYER_COUNT] : 1u;
   uint64_t layer = (uint64_t)pv->layer + d->s->word[PPU_GFX_LAYER_OFFSET];
   if (layer >= layers) {
      p->primitives++;
      p->primitives_culled++;
      return;
   }
   if (layer != d->layer) {
      raster_pipeline_flush(p); /* queued fragment work lands on the old layer */
      if (!use_layer(d, (uint32_t)layer))
         return;
   }
   if (pv->viewport % PPU_GFX_VIEWPORTS != d->viewport)
      use_viewport(d, pv->viewport);
   d->current = prim;
   d->current_vertices = n;
   float pos[3][4];
   float clip[3][PPU_GFX_MAX_CLIP_DISTANCES];
   for (unsigned k = 0; k < n; k++) {
      const struct ppu_gfx_vertex_header *h = record(d, prim->slot[k]);
      memcpy(pos[k], h->position, sizeof(pos[k]));
      memcpy(clip[k], h->clip_distance, sizeof(clip[k]));
   }
   bool distances =
       d->s->word[PPU_GFX_CLIP_DISTANCE_MASK] || d->s->word[PPU_GFX_CULL_DISTANCE_MASK];
   p->clip_distance = distances ? (const float(*)[8])clip : NULL;
   if (n == 3)
      raster_pipeline_triangle(p, (const float(*)[4])pos);
   else if (n == 2)
      raster_pipeline_line(p, (const float(*)[4])pos);
   else
      raster_pipeline_point(p, pos[0], record(d, prim->slot[0])->point_size);
   p->clip_distance = NULL;
}

bool gfx_draw_batch(struct gfx_draw *d, const struct gfx_batch *b)
{
   if (!vertex_warp(d, b))
      return false;
   if (d->s->word[PPU_GFX_RASTERIZER_DISCARD])
      return true;
   unsigned n = raster_topology_vertices((enum ppu_gfx_topology)d->s->word[PPU_GFX_TOPOLOGY]);
   for (unsigned i = 0; i < b->primitive_count; i++) {
      rasterize(d, &b->primitive[i], n);
      /* A fault in a fragment warp stops the draw at its primitive. */
      if (d->fp.grid && ppu_grid_aborted(d->fp.grid)) {
         *d->fault = d->fp.grid->fault;
         d->fault->engine = PPU_ENGINE_GRAPHICS;
         return false;
      }
      if (d->fault->kind != PPU_FAULT_NONE)
         return false;
   }
   /* The next batch's vertex warp writes scratch over the queued
    * primitives' records. */
   raster_pipeline_flush(&d->pipe);
   if (d->fp.grid && ppu_grid_aborted(d->fp.grid)) {
      *d->fault = d->fp.grid->fault;
      d->fault->engine = PPU_ENGINE_GRAPHICS;
      return false;
   }
   return d->fault->kind == PPU_FAULT_NONE;
}

bool gfx_draw_end(struct gfx_draw *d, bool ok, uint64_t *samples_passed)
{
   struct ppu_graphics_engine *ge = d->ge;
   struct ppu_fault wb_fault;
   struct ppu_fault *f = ok ? d->fault : &wb_fault;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++)
      ok = gfx_target_unmap(&ge->mmu, d->pd_pa, &d->color[i], ok, f) && ok;
   ok = gfx_target_unmap(&ge->mmu, d->pd_pa, &d->depth, ok, f) && ok;
   const struct raster_pipeline *p = &d->pipe;
   struct ppu_counter_block *c = ge->counters;
   ppu_counter_add(c, PPU_COUNTER_GFX_PRIMITIVES, p->primitives);
   ppu_counter_add(c, PPU_COUNTER_GFX_PRIMITIVES_CULLED, p->primitives_culled);
   ppu_counter_add(c, PPU_COUNTER_GFX_TILES_HIZ_CULLED, p->tiles_hiz_culled);
   ppu_counter_add(c, PPU_COUNTER_GFX_QUADS, p->quads);
   ppu_counter_add(c, PPU_COUNTER_GFX_HELPER_LANES, d->helper_lanes);
   ppu_counter_add(c, PPU_COUNTER_GFX_SAMPLES_PASSED, p->samples_passed);
   ppu_counter_add(c, PPU_COUNTER_GFX_VERTEX_WARPS, d->vertex_warps);
   ppu_counter_add(c, PPU_COUNTER_GFX_FRAGMENT_WARPS, d->fragment_warps);
   ppu_counter_add(c, PPU_COUNTER_GFX_INPUT_VERTICES, d->input_vertices);
   ppu_counter_add(c, PPU_COUNTER_GFX_VERTEX_LANES, d->vertex_lanes);
   ppu_counter_add(c, PPU_COUNTER_GFX_PRIMITIVES_CLIPPED, p->primitives_clipped);
   ppu_counter_add(c, PPU_COUNTER_GFX_FRAGMENT_LANES, d->fragment_lanes);
   ppu_counter_add(c, PPU_COUNTER_ROP_BLENDS, p->blends);
   *samples_passed = p->samples_passed;
   /* The grids go away with the draw: no SM may keep pointing at them. */
   for (unsigned k = 0; k < 2; k++)
      if (d->sm_grid[k])
         d->sm[k]->grid = NULL;
   release(d); /* and the fragment SMs' (gfx_fragment_end) */
   return ok;
}

bool gfx_draw_order_relaxed(const struct gfx_draw *d, bool counting_samples)
{
   if (d->s->word[PPU_GFX_PIXEL_ORDER] != PPU_GFX_PIXEL_ORDER_RELAXED)
      return false;
   uint32_t targets = 0;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++)
      targets |= d->pipe.color[i] ? 1u << i : 0u;
   return rop_order_is_relaxable(&d->pipe.zs, &d->pipe.blend, targets, counting_samples);
}
