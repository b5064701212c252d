/* The texture filtering unit (TFU, seed: "the TFU ... filters the texel
 * values to produce a final texture value") of one SM's texture unit: reads
 * the texels of a quad's footprint through the texture cache, decodes them
 * with the texel codec (sRGB is decoded to linear there, before filtering,
 * as Vulkan's "Texel Filtering" requires), replaces border texels by the
 * sampler's border color ("Texel Replacement"), applies the depth compare
 * to each texel before filtering ("Depth Compare Operation"), weights and
 * sums them, gathers one component for TLD4 ("Texel Gathering"), and
 * applies the view's component swizzle ("Component Swizzle").
 */
#ifndef PPU_TEXTURE_TEX_FILTER_H
#define PPU_TEXTURE_TEX_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "texture/tex_address.h"
#include "texture/tex_cache.h"

/* Filters every active lane of fp into out[lane][component] (32-bit words:
 * floats, or integers for integer formats); inactive lanes get 0. False
 * with *fault filled in when a texel cannot be read (MMU fault). */
bool ppu_tex_filter_quad(struct ppu_tex_cache *cache, uint64_t pd_pa,
                         const struct ppu_tex_footprint *fp, struct ppu_counter_block *counters,
                         uint32_t out[4][4], struct ppu_fault *fault);

/* VkCompareOp numbers (NEVER 0 .. ALWAYS 7): "reference op test". */
bool ppu_tex_compare(unsigned op, float reference, float test);

#endif
