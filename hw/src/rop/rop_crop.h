/* CROP (beam-tracing seed: "The CROP unit performs raster operations
 * related to pixel color such as ... pixel blending"): Vulkan's "Blending"
 * (every blend factor including constant colors and the second source,
 * every core blend op), "Logical Operations" and "Color Write Mask", per
 * sample of 1x and 4x targets, and multisample resolve.
 *
 * Rules taken from the spec:
 * - UNORM (and sRGB, in linear space) and SNORM targets clamp source,
 *   destination, constant and factors to [0, 1] / [-1, 1] before blending;
 *   float targets do not clamp; integer targets never blend.
 * - With the logic op enabled, blending is off for every target; the op
 *   works on the encoded bits of integer and normalized (not sRGB) targets,
 *   and float and sRGB targets take the source unchanged.
 * - The write mask keeps the bits of masked components as they were
 *   (component bits from rop_surface).
 * - A target without alpha reads destination alpha 1 (the codec's rule).
 */
#ifndef PPU_ROP_CROP_H
#define PPU_ROP_CROP_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/graphics.h"
#include "rop/rop_surface.h"

struct rop_blend_target {
   bool enable;
   uint8_t src_color, dst_color, color_op; /* enum ppu_gfx_blend_factor / _op */
   uint8_t src_alpha, dst_alpha, alpha_op;
   uint8_t write_mask; /* bit 0 R .. bit 3 A */
};

struct rop_blend_state {
   struct rop_blend_target target[PPU_GFX_COLOR_TARGETS];
   float constant[4];
   bool logic_op_enable;
   uint8_t logic_op; /* enum ppu_gfx_logic_op */
};

/* Writes one quad's colors to target `index`: src[p] (and src1[p], the
 * second blend source, or NULL) is pixel p's fragment output (floats, or
 * integers for integer targets); every covered sample (bit p * 4 + s) is
 * blended with its own destination. */
void rop_crop_quad(const struct rop_blend_state *b, unsigned index, struct rop_surface *rt,
                   int32_t x, int32_t y, uint16_t coverage, const struct ppu_texel src[4],
                   const struct ppu_texel *src1);

/* One blend equation on float values: result[c] of source s, second source
 * s1, destination d and constant k (each already clamped as the target
 * requires; the factors made of them are not clamped again). */
void rop_blend(const struct rop_blend_target *t, const float k[4], const float s[4],
               const float s1[4], const float d[4], float result[4]);

/* Bitwise logic op on n bytes: dst = op(src, dst). */
void rop_logic_op(unsigned op, const uint8_t *src, uint8_t *dst, uint32_t n);

enum rop_resolve_mode {
   ROP_RESOLVE_AVERAGE = 0,     /* float-class formats (sRGB averaged in linear) */
   ROP_RESOLVE_SAMPLE_ZERO = 1, /* any format */
   ROP_RESOLVE_MIN = 2,
   ROP_RESOLVE_MAX = 3,
};

/* Resolves the 4x target src into the 1x target dst (same format) over
 * pixels [x0, x1) x [y0, y1). stencil: resolve the stencil aspect of a
 * depth/stencil format. False when the formats or sizes do not fit or the
 * mode does not apply (AVERAGE of an integer format). */
bool rop_resolve(const struct rop_surface *src, struct rop_surface *dst, int32_t x0, int32_t y0,
                 int32_t x1, int32_t y1, enum rop_resolve_mode mode, bool stencil);

#endif
