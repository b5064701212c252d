/* The graphics engine's latched state: the state methods of the graphics
 * subchannel (ppu/graphics.h) checked as they arrive and kept per channel
 * as the words were written (the engine's state RAM), and the decoders
 * that turn those words into the state of each unit: clipping, setup,
 * ZROP, CROP and the render targets. The action methods (DRAW,
 * DRAW_INDIRECT, QUERY_BEGIN/END, RESOLVE) are reported to the caller,
 * which runs them with this state.
 */
#ifndef PPU_RASTER_GRAPHICS_STATE_H
#define PPU_RASTER_GRAPHICS_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "method_status.h"
#include "ppu/gpu.h"
#include "ppu/graphics.h"
#include "raster/raster_clip.h"
#include "raster/raster_setup.h"
#include "rop/rop_crop.h"
#include "rop/rop_zrop.h"

struct ppu_graphics_state {
   uint32_t word[PPU_GFX_METHOD_END];
};

enum ppu_graphics_action {
   PPU_GFX_ACTION_NONE = 0, /* a state method: latched */
   PPU_GFX_ACTION_DRAW,
   PPU_GFX_ACTION_DRAW_INDIRECT,
   PPU_GFX_ACTION_QUERY_BEGIN,
   PPU_GFX_ACTION_QUERY_END,
   PPU_GFX_ACTION_RESOLVE,
};

/* The reset state: no targets, one sample, every sample enabled, depth and
 * stencil tests off, write masks RGBA, line width 1. */
void ppu_graphics_state_init(struct ppu_graphics_state *s);

/* Latches one method word. An unknown method is BAD_METHOD, a value the
 * method cannot take BAD_METHOD_DATA (engine GRAPHICS, the detail names
 * the method and field); nothing is latched then. *action tells the caller
 * what to run. */
enum ppu_method_status ppu_graphics_state_write(struct ppu_graphics_state *s, uint32_t method,
                                                uint32_t data, enum ppu_graphics_action *action,
                                                struct ppu_fault *fault);

/* A render target as the methods describe it (COLOR_TARGET(i) or the
 * depth target when index is PPU_GFX_COLOR_TARGETS). */
struct ppu_graphics_target {
   uint64_t va;
   enum ppu_tex_format format; /* INVALID: not bound */
   enum ppu_tex_layout layout;
   unsigned block_height_log2;
   uint32_t row_pitch, width, height;
   uint64_t layer_stride;
   uint32_t layer;
};
void ppu_graphics_state_target(const struct ppu_graphics_state *s, unsigned index,
                               struct ppu_graphics_target *t);
/* The same for the group at any target base (RESOLVE_TARGET(i) too). */
void ppu_graphics_state_target_at(const struct ppu_graphics_state *s, uint32_t base,
                                  struct ppu_graphics_target *t);

/* Unit state for viewport vp (its clip and setup state; the clip rect is
 * scissor vp ∩ render area ∩ the bound targets' extent). */
void ppu_graphics_state_clip(const struct ppu_graphics_state *s, unsigned vp,
                             struct raster_clip_state *c);
void ppu_graphics_state_setup(const struct ppu_graphics_state *s, unsigned vp,
                              struct raster_setup_state *r);
void ppu_graphics_state_zs(const struct ppu_graphics_state *s, struct rop_zs_state *z);
void ppu_graphics_state_blend(const struct ppu_graphics_state *s, struct rop_blend_state *b);

static inline float ppu_graphics_state_float(const struct ppu_graphics_state *s, uint32_t method)
{
   union {
      uint32_t u;
      float f;
   } v = {s->word[method]};
   return v.f;
}

#endif
