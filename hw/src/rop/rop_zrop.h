/* ZROP (beam-tracing seed: "The ZROP unit implements depth testing in
 * conjunction with the raster engine ... tests the depth against a
 * corresponding depth in a depth buffer for a sample location ... If the
 * fragment passes the depth test ... the ZROP unit updates the depth
 * buffer"): the per-sample fragment tests of Vulkan's "Fragment Operations"
 * in their order — depth bounds, stencil, depth — the stencil and depth
 * writes, and the count of samples that pass (occlusion queries).
 *
 * Fragment depth reaches a UNORM target clamped to [0, 1] and rounded to
 * the format's code before the compare ("Depth Test": the depth is
 * converted to the attachment's format); both sides go through the texel
 * codec, whose decode is monotonic and one-to-one, so comparing decoded
 * values compares codes.
 */
#ifndef PPU_ROP_ZROP_H
#define PPU_ROP_ZROP_H

#include <stdbool.h>
#include <stdint.h>

#include "rop/rop_surface.h"

struct rop_stencil_face {
   uint8_t fail_op, pass_op, depth_fail_op; /* enum ppu_gfx_stencil_op */
   uint8_t compare_op;                      /* enum ppu_gfx_compare_op */
   uint8_t compare_mask, write_mask, reference;
};

struct rop_zs_state {
   bool depth_test, depth_write;
   uint8_t depth_op; /* enum ppu_gfx_compare_op: fragment op stored */
   bool depth_bounds;
   float bounds_min, bounds_max;
   bool stencil_test;
   struct rop_stencil_face front, back;
};

/* Tests one quad (coverage bits as raster_quad: pixel * 4 + sample, depth
 * per bit) against ds, updates ds and returns the coverage that passed.
 * Pixels outside the target are dropped. *passed grows by the number of
 * passing samples. */
uint16_t rop_zrop_quad(const struct rop_zs_state *z, struct rop_surface *ds, int32_t x, int32_t y,
                       uint16_t coverage, const float depth[16], bool front_facing,
                       uint64_t *passed);

/* The new stencil value of one op (Vulkan "Stencil Test", VkStencilOp). */
uint8_t rop_stencil_apply(unsigned op, uint8_t value, uint8_t reference);

/* The exact range of the depth values in tile (tx, ty) of ds (hi-Z). False
 * when ds has no depth or the tile holds no pixel of it. */
bool rop_zrop_tile_range(const struct rop_surface *ds, int32_t tx, int32_t ty, float *zmin,
                         float *zmax);

/* Whether hi-Z may cull with this state: failing the depth test must have
 * no effect but dropping samples. program_flags: PPU_GFX_PROGRAM_*. */
bool rop_zrop_hiz_cull_allowed(const struct rop_zs_state *z, uint32_t program_flags);

#endif
