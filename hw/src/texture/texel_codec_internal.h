/* Conversions shared by the texel codec's files (texel_codec*.c): the
 * number conversions of Vulkan's "Fixed-Point Data Conversions", the sRGB
 * transfer function, the small floats, and the block decoders of the BC
 * formats. Not part of the codec's interface (texel_codec.h). */
#ifndef PPU_TEXTURE_TEXEL_CODEC_INTERNAL_H
#define PPU_TEXTURE_TEXEL_CODEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "texture/texel_codec.h"

/* Vulkan "Conversion from Normalized Fixed-Point to Floating-Point". */
float texel_unorm_to_float(uint32_t c, unsigned bits);
float texel_snorm_to_float(int32_t c, unsigned bits);
/* The reverse ("Conversion from Floating-Point to Normalized Fixed-Point"):
 * clamp, scale, round to nearest (ties away from zero); NaN gives 0. */
uint32_t texel_float_to_unorm(float f, unsigned bits);
int32_t texel_float_to_snorm(float f, unsigned bits);

/* sRGB EOTF (Vulkan "sRGB transfer functions" / Khronos Data Format
 * Specification, section "sRGB transfer functions"): an 8-bit encoded value
 * to linear (exact to the float nearest the double-precision formula), any
 * encoded value in [0, 1] to linear, and linear to an 8-bit encoded value. */
float texel_srgb8_to_linear(uint8_t c);
float texel_srgb_to_linear(double c);
uint8_t texel_linear_to_srgb8(float linear);

/* Floats with a 5-bit exponent (bias 15) and mant_bits of mantissa: the
 * 16-bit float (mant_bits 10, with a sign bit above) and the unsigned
 * 11- and 10-bit floats (mant_bits 6 and 5). */
float texel_small_float_to_float(uint32_t bits, unsigned mant_bits, bool has_sign);
uint32_t texel_float_to_small_float(float f, unsigned mant_bits, bool has_sign);
static inline float texel_half_to_float(uint16_t h)
{
   return texel_small_float_to_float(h, 10, true);
}

/* E5B9G9R9: the three components from / to the packed word. */
void texel_rgb9e5_decode(uint32_t packed, float rgb[3]);
uint32_t texel_rgb9e5_encode(const float rgb[3]);

/* BC block decoders (texel_codec_bc.c, texel_codec_bc6h.c, texel_codec_bc7.c). */
void texel_decode_bc1_to_4(enum ppu_tex_format format, const uint8_t *block,
                           struct ppu_texel out[16]);
void texel_decode_bc6h(const uint8_t *block, bool is_signed, struct ppu_texel out[16]);
void texel_decode_bc7(const uint8_t *block, bool srgb, struct ppu_texel out[16]);

/* Reads count bits at bit position pos of a little-endian block (count <= 32). */
static inline uint32_t texel_block_bits(const uint8_t *block, unsigned pos, unsigned count)
{
   uint32_t v = 0;
   for (unsigned i = 0; i < count; i++)
      v |= (uint32_t)((block[(pos + i) >> 3] >> ((pos + i) & 7)) & 1u) << i;
   return v;
}

#endif
