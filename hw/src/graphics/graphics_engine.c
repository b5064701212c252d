/* Graphics engine: state methods, actions (draws, queries, resolve). */
#include "graphics/graphics_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "graphics/graphics_draw.h"
#include "graphics/graphics_targets.h"
#include "ppu/methods.h"

void ppu_graphics_engine_init(struct ppu_graphics_engine *ge, struct ppu_mmu *mmu,
                              struct ppu_compute_engine *compute,
                              struct ppu_counter_block *counters)
{
   ppu_mmu_client_init(&ge->mmu, mmu, PPU_ENGINE_GRAPHICS);
   ge->compute = compute;
   ge->counters = counters;
}

/* The SMs are the compute engine's: a draw waits while a grid holds them
 * (grids run on the worker threads, draws on the model thread). */
static bool sms_busy(struct ppu_compute_engine *ce)
{
   pthread_mutex_lock(&ce->lock);
   bool busy = ce->grid != NULL;
   pthread_mutex_unlock(&ce->lock);
   return busy;
}

static enum ppu_method_status draw(struct ppu_graphics_engine *ge, struct ppu_graphics_context *ctx,
                                   uint64_t pd_pa, enum ppu_graphics_action action, uint32_t data,
                                   struct ppu_fault *fault)
{
   if (sms_busy(ge->compute))
      return PPU_METHOD_STALL;
   const uint32_t *w = ctx->state.word;
   struct gfx_draw *d = malloc(sizeof(*d));
   if (!d) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "out of host memory for a draw");
      return PPU_METHOD_FAULT;
   }
   if (!gfx_draw_begin(d, ge, &ctx->state, pd_pa, fault)) {
      free(d);
      return PPU_METHOD_FAULT;
   }
   /* The programs' grids run on this (the model) thread inside this turn;
    * the channel's destroyer can only reach them through the flag. */
   if (d->vp.grid)
      d->vp.grid->cancel = &ctx->cancel;
   if (d->fp.grid)
      d->fp.grid->cancel = &ctx->cancel;
   bool ok;
   if (action == PPU_GFX_ACTION_DRAW) {
      struct gfx_draw_params p = {
          .indexed = data & PPU_GFX_DRAW_FLAG_INDEXED,
          .first = w[PPU_GFX_DRAW_FIRST],
          .count = w[PPU_GFX_DRAW_COUNT],
          .first_instance = w[PPU_GFX_DRAW_FIRST_INSTANCE],
          .instance_count = w[PPU_GFX_DRAW_INSTANCE_COUNT],
          .vertex_offset = (int32_t)w[PPU_GFX_DRAW_VERTEX_OFFSET],
      };
      ok = gfx_distribute(d, &p);
   } else {
      ok = gfx_distribute_indirect(d, data);
   }
   ppu_counter_add(ge->counters, PPU_COUNTER_GFX_DRAWS, 1);
   if (gfx_draw_order_relaxed(d, ctx->query_active))
      ppu_counter_add(ge->counters, PPU_COUNTER_GFX_RELAXED_DRAWS, 1);
   uint64_t samples = 0;
   ok = gfx_draw_end(d, ok, &samples);
   free(d);
   ctx->samples_passed += samples;
   /* A cancelled draw is no fault: its channel is being destroyed and is
    * never served again, so leaving the method stalled ends it quietly. */
   if (!ok && atomic_load_explicit(&ctx->cancel, memory_order_relaxed))
      return PPU_METHOD_STALL;
   return ok ? PPU_METHOD_DONE : PPU_METHOD_FAULT;
}

static enum ppu_method_status query_end(struct ppu_graphics_engine *ge,
                                        struct ppu_graphics_context *ctx, uint64_t pd_pa,
                                        struct ppu_fault *fault)
{
   const uint32_t *w = ctx->state.word;
   uint64_t va = (uint64_t)w[PPU_GFX_QUERY_ADDR_HI] << 32 | w[PPU_GFX_QUERY_ADDR_LO];
   if (va % 16) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "query record 0x%llx is not 16-byte aligned", (unsigned long long)va);
      return PPU_METHOD_FAULT;
   }
   struct ppu_query_record r = {ctx->samples_passed - ctx->query_begin, 1};
   return ppu_mmu_write(&ge->mmu, pd_pa, va, &r, sizeof(r), fault) ? PPU_METHOD_DONE
                                                                   : PPU_METHOD_FAULT;
}

/* One resolve: the 4x target at src_base into the 1x target at dst_base. */
static bool resolve_one(struct ppu_graphics_engine *ge, const struct ppu_graphics_state *s,
                        uint64_t pd_pa, uint32_t src_base, uint32_t dst_base, unsigned mode,
                        bool stencil, const char *what, struct ppu_fault *fault)
{
   struct gfx_target src, dst;
   if (!gfx_target_map(&ge->mmu, pd_pa, s, src_base, 0, 2, what, &src, fault))
      return false;
   if (!gfx_target_map(&ge->mmu, pd_pa, s, dst_base, 0, 0, what, &dst, fault)) {
      gfx_target_unmap(&ge->mmu, pd_pa, &src, false, NULL);
      return false;
   }
   uint32_t a0 = s->word[PPU_GFX_RENDER_AREA_XY0], a1 = s->word[PPU_GFX_RENDER_AREA_XY1];
   int32_t x1 = (int32_t)(a1 & 0xffffu), y1 = (int32_t)(a1 >> 16);
   bool ok = src.bound && dst.bound;
   if (ok) {
      x1 = x1 < (int32_t)dst.surface.width ? x1 : (int32_t)dst.surface.width;
      y1 = y1 < (int32_t)dst.surface.height ? y1 : (int32_t)dst.surface.height;
      ok = rop_resolve(&src.surface, &dst.surface, (int32_t)(a0 & 0xffffu), (int32_t)(a0 >> 16), x1,
                       y1, (enum rop_resolve_mode)mode, stencil);
   }
   if (!ok)
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "RESOLVE of %s: targets unbound, of different formats or sizes, or mode %u "
                    "does not apply",
                    what, mode);
   gfx_target_unmap(&ge->mmu, pd_pa, &src, false, NULL);
   return gfx_target_unmap(&ge->mmu, pd_pa, &dst, ok, fault) && ok;
}

static enum ppu_method_status resolve(struct ppu_graphics_engine *ge,
                                      struct ppu_graphics_context *ctx, uint64_t pd_pa,
                                      uint32_t data, struct ppu_fault *fault)
{
   const struct ppu_graphics_state *s = &ctx->state;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++) {
      char what[24];
      snprintf(what, sizeof(what), "COLOR_TARGET(%u)", i);
      if ((data & (1u << i)) &&
          !resolve_one(ge, s, pd_pa, PPU_GFX_COLOR_TARGET(i), PPU_GFX_RESOLVE_TARGET(i),
                       (data >> PPU_GFX_RESOLVE_COLOR_MODE_SHIFT) & 3u, false, what, fault))
         return PPU_METHOD_FAULT;
   }
   if ((data & PPU_GFX_RESOLVE_DEPTH) &&
       !resolve_one(ge, s, pd_pa, PPU_GFX_DEPTH_TARGET_BASE, PPU_GFX_RESOLVE_DEPTH_TARGET_BASE,
                    (data >> PPU_GFX_RESOLVE_DEPTH_MODE_SHIFT) & 3u, false, "DEPTH_TARGET", fault))
      return PPU_METHOD_FAULT;
   if ((data & PPU_GFX_RESOLVE_STENCIL) &&
       !resolve_one(ge, s, pd_pa, PPU_GFX_DEPTH_TARGET_BASE, PPU_GFX_RESOLVE_DEPTH_TARGET_BASE,
                    (data >> PPU_GFX_RESOLVE_STENCIL_MODE_SHIFT) & 3u, true, "stencil", fault))
      return PPU_METHOD_FAULT;
   return PPU_METHOD_DONE;
}

enum ppu_method_status ppu_graphics_engine_method(struct ppu_graphics_engine *ge,
                                                  struct ppu_graphics_context *ctx, uint64_t pd_pa,
                                                  uint32_t method, uint32_t data,
                                                  struct ppu_fault *fault)
{
   if (!ctx->ready) {
      ppu_graphics_state_init(&ctx->state);
      ctx->ready = true;
   }
   enum ppu_graphics_action action;
   if (ppu_graphics_state_write(&ctx->state, method, data, &action, fault) != PPU_METHOD_DONE)
      return PPU_METHOD_FAULT;
   switch (action) {
   case PPU_GFX_ACTION_DRAW:
   case PPU_GFX_ACTION_DRAW_INDIRECT:
      return draw(ge, ctx, pd_pa, action, data, fault);
   case PPU_GFX_ACTION_QUERY_BEGIN:
      ctx->query_begin = ctx->samples_passed;
      ctx->query_active = true;
      return PPU_METHOD_DONE;
   case PPU_GFX_ACTION_QUERY_END:
      ctx->query_active = false;
      return query_end(ge, ctx, pd_pa, fault);
   case PPU_GFX_ACTION_RESOLVE:
      return resolve(ge, ctx, pd_pa, data, fault);
   default:
      return PPU_METHOD_DONE;
   }
}
