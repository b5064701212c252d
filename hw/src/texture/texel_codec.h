/* Texel encoding and decoding for every enum ppu_tex_format: the one place
 * that knows the bits of a format. The texture unit's filtering unit
 * decodes texels to vectors of four values, storage-image stores and the
 * copy engine's clears encode them, and the tests compare both against
 * plain C references.
 *
 * Values travel as struct ppu_texel: four 32-bit words, read as floats for
 * UNORM/SNORM/SRGB/FLOAT formats (sRGB decoded to linear), as uint32 for
 * UINT and stencil, as int32 for SINT. Missing components read as 0, and
 * alpha as 1 (1.0f or integer 1), per Vulkan's "Conversion to RGBA". */
#ifndef PPU_TEXTURE_TEXEL_CODEC_H
#define PPU_TEXTURE_TEXEL_CODEC_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/texture.h"

struct ppu_texel {
   union {
      float f[4];
      uint32_t u[4];
      int32_t i[4];
   };
};

enum ppu_texel_class {
   PPU_TEXEL_CLASS_FLOAT, /* UNORM, SNORM, SRGB, SFLOAT, UFLOAT, depth */
   PPU_TEXEL_CLASS_UINT,  /* UINT, stencil */
   PPU_TEXEL_CLASS_SINT,
};

enum ppu_texel_class ppu_texel_format_class(enum ppu_tex_format format);

/* The components (bit 0 R or depth or stencil, 1 G, 2 B, 3 A) a format's
 * texels have; `stencil` selects the stencil aspect. The others read as
 * 0 (R, G, B) and 1 (A), border texels included. */
unsigned ppu_texel_format_components(enum ppu_tex_format format, bool stencil);

/* Decodes the texel at `src` (ppu_tex_format_bytes(format) bytes). Not for
 * block-compressed formats. `stencil` selects the stencil aspect of a
 * combined depth/stencil format. */
void ppu_texel_decode(enum ppu_tex_format format, const void *src, bool stencil,
                      struct ppu_texel *out);

/* Encodes a texel (rounding and clamping as Vulkan's conversion rules say:
 * round to nearest for normalized formats, saturation, sRGB encoding,
 * float-to-small-float with round to nearest even). For the combined
 * depth/stencil formats (D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT) only the
 * selected aspect's bits of `dst` change, so `dst` must hold the texel. */
void ppu_texel_encode(enum ppu_tex_format format, const struct ppu_texel *in, bool stencil,
                      void *dst);

/* Decodes one 4x4 block of a block-compressed format into 16 texels, row
 * after row. */
void ppu_texel_decode_block(enum ppu_tex_format format, const void *block,
                            struct ppu_texel out[16]);

#endif
