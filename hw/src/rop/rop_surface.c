/* Render-target description and the format facts the ROP derives from the
 * texel codec. */
#include "rop/rop_surface.h"

#include <math.h>
#include <string.h>

static const char *const format_names[] = {
#define ROP_FORMAT_NAME_(id, bytes, block) #id,
    PPU_TEX_FORMATS(ROP_FORMAT_NAME_)
#undef ROP_FORMAT_NAME_
};

static float decode_red(enum ppu_tex_format f, float v)
{
   uint8_t bits[ROP_MAX_TEXEL_BYTES] = {0};
   struct ppu_texel t = {{{v, 0.0f, 0.0f, 0.0f}}};
   struct ppu_texel back;
   ppu_texel_encode(f, &t, false, bits);
   ppu_texel_decode(f, bits, false, &back);
   return back.f[0];
}

static enum rop_numeric_kind numeric_kind(enum ppu_tex_format f)
{
   switch (ppu_texel_format_class(f)) {
   case PPU_TEXEL_CLASS_UINT:
      return ROP_KIND_UINT;
   case PPU_TEXEL_CLASS_SINT:
      return ROP_KIND_SINT;
   default:
      break;
   }
   /* Normalized formats saturate at 1; signed ones reach -1. */
   if (decode_red(f, 2.0f) == 2.0f)
      return ROP_KIND_FLOAT;
   return decode_red(f, -1.0f) == -1.0f ? ROP_KIND_SNORM : ROP_KIND_UNORM;
}

/* The bits component c can change: the union of what encoding probe values
 * into c alone flips against encoding zeros. The probes reach every bit of
 * every format's field (all-ones integers, -1, NaN with a full payload,
 * the largest finite small floats, +-inf). */
static void component_bits(enum ppu_tex_format f, enum rop_numeric_kind kind, unsigned c,
                           uint8_t out[ROP_MAX_TEXEL_BYTES])
{
   static const uint32_t float_probes[] = {0x3f800000u, 0xbf800000u, 0x477fe000u, 0xc77fe000u,
                                           0x7fffffffu, 0xffffffffu, 0x7f800000u, 0x3effffffu,
                                           0x477fffffu, 0x3f000000u};
   static const uint32_t int_probes[] = {0xffffffffu, 0x7fffffffu, 0x80000000u, 0x55555555u};
   const uint32_t *probes =
       kind == ROP_KIND_UINT || kind == ROP_KIND_SINT ? int_probes : float_probes;
   unsigned n = probes == int_probes ? sizeof(int_probes) / 4 : sizeof(float_probes) / 4;
   uint8_t zero[ROP_MAX_TEXEL_BYTES] = {0};
   struct ppu_texel t = {{{0}}};
   ppu_texel_encode(f, &t, false, zero);
   memset(out, 0, ROP_MAX_TEXEL_BYTES);
   for (unsigned i = 0; i < n; i++) {
      uint8_t bits[ROP_MAX_TEXEL_BYTES] = {0};
      struct ppu_texel p = {{{0}}};
      p.u[c] = probes[i];
      ppu_texel_encode(f, &p, false, bits);
      for (unsigned b = 0; b < ROP_MAX_TEXEL_BYTES; b++)
         out[b] |= (uint8_t)(bits[b] ^ zero[b]);
   }
}

bool rop_surface_init(struct rop_surface *s, uint8_t *base, enum ppu_tex_format format,
                      enum ppu_tex_layout layout, unsigned block_height_log2, uint32_t row_pitch,
                      uint32_t width, uint32_t height, unsigned samples_log2)
{
   if (format == PPU_TEX_FORMAT_INVALID || format >= PPU_TEX_FORMAT_COUNT ||
       ppu_tex_format_is_compressed(format) || format == PPU_TEX_FORMAT_E5B9G9R9_UFLOAT)
      return false;
   if (width == 0 || height == 0 || width > 16384 || height > 16384 ||
       (samples_log2 != 0 && samples_log2 != 2) ||
       block_height_log2 > PPU_TEX_MAX_BLOCK_HEIGHT_LOG2)
      return false;
   memset(s, 0, sizeof(*s));
   s->base = base;
   s->format = format;
   s->width = width;
   s->height = height;
   s->samples_log2 = samples_log2;
   s->bytes = ppu_tex_format_bytes(format);
   uint32_t scale = samples_log2 ? 2u : 1u;
   s->image.address = 0;
   s->image.format = (uint16_t)format;
   s->image.dim = PPU_TEX_DIM_2D;
   s->image.layout = (uint8_t)layout;
   s->image.block_height_log2 = (uint8_t)block_height_log2;
   s->image.width = width * scale;
   s->image.height = height * scale;
   s->image.depth = 1;
   s->image.row_pitch = layout == PPU_TEX_LAYOUT_LINEAR ? row_pitch : 0;
   s->image.image_levels = 1;
   s->image.level_count = 1;
   s->image.layer_count = 1;
   if (layout == PPU_TEX_LAYOUT_LINEAR && row_pitch < s->image.width * s->bytes)
      return false;
   s->has_depth = format == PPU_TEX_FORMAT_D16_UNORM || format == PPU_TEX_FORMAT_X8_D24_UNORM ||
                  format == PPU_TEX_FORMAT_D32_SFLOAT ||
                  format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT ||
                  format == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
   s->has_stencil = format == PPU_TEX_FORMAT_S8_UINT ||
                    format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT ||
                    format == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
   s->srgb = strstr(format_names[format], "SRGB") != NULL;
   s->kind = s->has_stencil && !s->has_depth ? ROP_KIND_UINT : numeric_kind(format);
   if (!s->has_depth && !s->has_stencil) {
      for (unsigned c = 0; c < 4; c++)
         component_bits(format, s->kind, c, s->component_bits[c]);
   }
   return true;
}

uint64_t rop_surface_size(const struct rop_surface *s)
{
   return ppu_tex_layer_size(&s->image);
}
