/* Texel codec for the uncompressed formats: a table says, per format, how
 * its components sit in the texel (bit offset and width in the
 * little-endian texel) and how their numbers read; decode and encode walk
 * that table. Number conversions are in texel_codec_float.c, BC blocks in
 * texel_codec_bc*.c. */
#include "texture/texel_codec.h"

#include <string.h>

#include "texture/texel_codec_internal.h"

enum texel_kind {
   KIND_NONE,  /* INVALID and BC formats: no per-texel decode */
   KIND_UNORM, /* also D16 and the depth of X8_D24 / D24S8 */
   KIND_SNORM,
   KIND_UINT, /* also S8 */
   KIND_SINT,
   KIND_SRGB,       /* R, G, B through the sRGB EOTF; A (if any) UNORM */
   KIND_SFLOAT,     /* 16- or 32-bit IEEE floats, also D32 */
   KIND_UFLOAT,     /* B10G11R11: unsigned 11/10-bit floats */
   KIND_SHARED_EXP, /* E5B9G9R9 */
};

struct texel_channel {
   uint8_t comp; /* 0 R (or depth), 1 G, 2 B, 3 A */
   uint8_t offset, bits;
};

struct texel_layout {
   uint8_t kind;
   uint8_t count;
   struct texel_channel ch[4];
   struct texel_channel stencil; /* bits 0: no stencil aspect */
};

#define CH(c, o, b)                                                                                \
   {                                                                                               \
      (c), (o), (b)                                                                                \
   }
#define ARRAY1(k, b)                                                                               \
   {                                                                                               \
      (k), 1, {CH(0, 0, b)}, CH(0, 0, 0)                                                           \
   }
#define ARRAY2(k, b)                                                                               \
   {                                                                                               \
      (k), 2, {CH(0, 0, b), CH(1, b, b)}, CH(0, 0, 0)                                              \
   }
#define ARRAY4(k, b)                                                                               \
   {                                                                                               \
      (k), 4, {CH(0, 0, b), CH(1, b, b), CH(2, 2 * (b), b), CH(3, 3 * (b), b)}, CH(0, 0, 0)        \
   }

/* Packed formats are named from the most significant bits down (Vulkan's
 * "Packed Formats"), so their first-named component is at the top. */
static const struct texel_layout layouts[PPU_TEX_FORMAT_COUNT] = {
    [PPU_TEX_FORMAT_R8_UNORM] = ARRAY1(KIND_UNORM, 8),
    [PPU_TEX_FORMAT_R8_SNORM] = ARRAY1(KIND_SNORM, 8),
    [PPU_TEX_FORMAT_R8_UINT] = ARRAY1(KIND_UINT, 8),
    [PPU_TEX_FORMAT_R8_SINT] = ARRAY1(KIND_SINT, 8),
    [PPU_TEX_FORMAT_R8_SRGB] = ARRAY1(KIND_SRGB, 8),
    [PPU_TEX_FORMAT_R8G8_UNORM] = ARRAY2(KIND_UNORM, 8),
    [PPU_TEX_FORMAT_R8G8_SNORM] = ARRAY2(KIND_SNORM, 8),
    [PPU_TEX_FORMAT_R8G8_UINT] = ARRAY2(KIND_UINT, 8),
    [PPU_TEX_FORMAT_R8G8_SINT] = ARRAY2(KIND_SINT, 8),
    [PPU_TEX_FORMAT_R8G8_SRGB] = ARRAY2(KIND_SRGB, 8),
    [PPU_TEX_FORMAT_R8G8B8A8_UNORM] = ARRAY4(KIND_UNORM, 8),
    [PPU_TEX_FORMAT_R8G8B8A8_SNORM] = ARRAY4(KIND_SNORM, 8),
    [PPU_TEX_FORMAT_R8G8B8A8_UINT] = ARRAY4(KIND_UINT, 8),
    [PPU_TEX_FORMAT_R8G8B8A8_SINT] = ARRAY4(KIND_SINT, 8),
    [PPU_TEX_FORMAT_R8G8B8A8_SRGB] = ARRAY4(KIND_SRGB, 8),
    [PPU_TEX_FORMAT_B8G8R8A8_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(2, 0, 8), CH(1, 8, 8), CH(0, 16, 8), CH(3, 24, 8)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_B8G8R8A8_SRGB] = {KIND_SRGB,
                                      4,
                                      {CH(2, 0, 8), CH(1, 8, 8), CH(0, 16, 8), CH(3, 24, 8)},
                                      CH(0, 0, 0)},
    [PPU_TEX_FORMAT_A2B10G10R10_UNORM] =
        {KIND_UNORM, 4, {CH(0, 0, 10), CH(1, 10, 10), CH(2, 20, 10), CH(3, 30, 2)}, CH(0, 0, 0)},
    [PPU_TEX_FORMAT_A2B10G10R10_UINT] = {KIND_UINT,
                                         4,
                                         {CH(0, 0, 10), CH(1, 10, 10), CH(2, 20, 10), CH(3, 30, 2)},
                                         CH(0, 0, 0)},
    [PPU_TEX_FORMAT_A2R10G10B10_UNORM] =
        {KIND_UNORM, 4, {CH(2, 0, 10), CH(1, 10, 10), CH(0, 20, 10), CH(3, 30, 2)}, CH(0, 0, 0)},
    [PPU_TEX_FORMAT_B10G11R11_UFLOAT] = {KIND_UFLOAT,
                                         3,
                                         {CH(0, 0, 11), CH(1, 11, 11), CH(2, 22, 10)},
                                         CH(0, 0, 0)},
    [PPU_TEX_FORMAT_E5B9G9R9_UFLOAT] = {KIND_SHARED_EXP,
                                        3,
                                        {CH(0, 0, 9), CH(1, 9, 9), CH(2, 18, 9)},
                                        CH(0, 0, 0)},
    [PPU_TEX_FORMAT_R5G6B5_UNORM] = {KIND_UNORM,
                                     3,
                                     {CH(2, 0, 5), CH(1, 5, 6), CH(0, 11, 5)},
                                     CH(0, 0, 0)},
    /* The other 16-bit packed formats (appended after BC7 in the format
     * list, so the numbers of the older ones stay). */
    [PPU_TEX_FORMAT_B5G6R5_UNORM] = {KIND_UNORM,
                                     3,
                                     {CH(0, 0, 5), CH(1, 5, 6), CH(2, 11, 5)},
                                     CH(0, 0, 0)},
    [PPU_TEX_FORMAT_A1R5G5B5_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(2, 0, 5), CH(1, 5, 5), CH(0, 10, 5), CH(3, 15, 1)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_R5G5B5A1_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(3, 0, 1), CH(2, 1, 5), CH(1, 6, 5), CH(0, 11, 5)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_B5G5R5A1_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(3, 0, 1), CH(0, 1, 5), CH(1, 6, 5), CH(2, 11, 5)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_R4G4B4A4_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(3, 0, 4), CH(2, 4, 4), CH(1, 8, 4), CH(0, 12, 4)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_B4G4R4A4_UNORM] = {KIND_UNORM,
                                       4,
                                       {CH(3, 0, 4), CH(0, 4, 4), CH(1, 8, 4), CH(2, 12, 4)},
                                       CH(0, 0, 0)},
    [PPU_TEX_FORMAT_R16_UNORM] = ARRAY1(KIND_UNORM, 16),
    [PPU_TEX_FORMAT_R16_SNORM] = ARRAY1(KIND_SNORM, 16),
    [PPU_TEX_FORMAT_R16_UINT] = ARRAY1(KIND_UINT, 16),
    [PPU_TEX_FORMAT_R16_SINT] = ARRAY1(KIND_SINT, 16),
    [PPU_TEX_FORMAT_R16_SFLOAT] = ARRAY1(KIND_SFLOAT, 16),
    [PPU_TEX_FORMAT_R16G16_UNORM] = ARRAY2(KIND_UNORM, 16),
    [PPU_TEX_FORMAT_R16G16_SNORM] = ARRAY2(KIND_SNORM, 16),
    [PPU_TEX_FORMAT_R16G16_UINT] = ARRAY2(KIND_UINT, 16),
    [PPU_TEX_FORMAT_R16G16_SINT] = ARRAY2(KIND_SINT, 16),
    [PPU_TEX_FORMAT_R16G16_SFLOAT] = ARRAY2(KIND_SFLOAT, 16),
    [PPU_TEX_FORMAT_R16G16B16A16_UNORM] = ARRAY4(KIND_UNORM, 16),
    [PPU_TEX_FORMAT_R16G16B16A16_SNORM] = ARRAY4(KIND_SNORM, 16),
    [PPU_TEX_FORMAT_R16G16B16A16_UINT] = ARRAY4(KIND_UINT, 16),
    [PPU_TEX_FORMAT_R16G16B16A16_SINT] = ARRAY4(KIND_SINT, 16),
    [PPU_TEX_FORMAT_R16G16B16A16_SFLOAT] = ARRAY4(KIND_SFLOAT, 16),
    [PPU_TEX_FORMAT_R32_UINT] = ARRAY1(KIND_UINT, 32),
    [PPU_TEX_FORMAT_R32_SINT] = ARRAY1(KIND_SINT, 32),
    [PPU_TEX_FORMAT_R32_SFLOAT] = ARRAY1(KIND_SFLOAT, 32),
    [PPU_TEX_FORMAT_R32G32_UINT] = ARRAY2(KIND_UINT, 32),
    [PPU_TEX_FORMAT_R32G32_SINT] = ARRAY2(KIND_SINT, 32),
    [PPU_TEX_FORMAT_R32G32_SFLOAT] = ARRAY2(KIND_SFLOAT, 32),
    [PPU_TEX_FORMAT_R32G32B32A32_UINT] = ARRAY4(KIND_UINT, 32),
    [PPU_TEX_FORMAT_R32G32B32A32_SINT] = ARRAY4(KIND_SINT, 32),
    [PPU_TEX_FORMAT_R32G32B32A32_SFLOAT] = ARRAY4(KIND_SFLOAT, 32),
    [PPU_TEX_FORMAT_D16_UNORM] = ARRAY1(KIND_UNORM, 16),
    [PPU_TEX_FORMAT_X8_D24_UNORM] = ARRAY1(KIND_UNORM, 24),
    [PPU_TEX_FORMAT_D32_SFLOAT] = ARRAY1(KIND_SFLOAT, 32),
    [PPU_TEX_FORMAT_S8_UINT] = {KIND_UINT, 1, {CH(0, 0, 8)}, CH(0, 0, 8)},
    [PPU_TEX_FORMAT_D24_UNORM_S8_UINT] = {KIND_UNORM, 1, {CH(0, 0, 24)}, CH(0, 24, 8)},
    [PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT] = {KIND_SFLOAT, 1, {CH(0, 0, 32)}, CH(0, 32, 8)},
};

static const struct texel_layout *layout_of(enum ppu_tex_format format)
{
   static const struct texel_layout none = {KIND_NONE, 0, {CH(0, 0, 0)}, CH(0, 0, 0)};
   return (unsigned)format < PPU_TEX_FORMAT_COUNT ? &layouts[format] : &none;
}

/* Formats with both a depth and a stencil aspect: encoding one aspect
 * leaves the other's bits as they were (a depth-only clear of D24S8 keeps
 * the stencil, as vkCmdClearDepthStencilImage with one aspect must). */
static bool is_combined_depth_stencil(enum ppu_tex_format format)
{
   return format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT || format == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
}

enum ppu_texel_class ppu_texel_format_class(enum ppu_tex_format format)
{
   switch (layout_of(format)->kind) {
   case KIND_UINT:
      return PPU_TEXEL_CLASS_UINT;
   case KIND_SINT:
      return PPU_TEXEL_CLASS_SINT;
   default:
      return PPU_TEXEL_CLASS_FLOAT;
   }
}

/* A texel is at most 16 bytes; no component crosses a 64-bit boundary. */
static uint64_t get_field(const uint64_t w[2], struct texel_channel ch)
{
   uint64_t v = w[ch.offset / 64] >> (ch.offset % 64);
   return ch.bits == 64 ? v : v & ((1ull << ch.bits) - 1);
}

static void put_field(uint64_t w[2], struct texel_channel ch, uint64_t v)
{
   uint64_t mask = ((1ull << ch.bits) - 1) << (ch.offset % 64);
   w[ch.offset / 64] = (w[ch.offset / 64] & ~mask) | ((v << (ch.offset % 64)) & mask);
}

static int32_t sign_extend(uint64_t v, unsigned bits)
{
   uint64_t m = 1ull << (bits - 1);
   return (int32_t)(int64_t)((v ^ m) - m);
}

static float f32_from_bits(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static uint32_t f32_bits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* Vulkan "Conversion to RGBA": missing R, G, B read 0, missing A reads 1. */
static void set_defaults(struct ppu_texel *out, bool integer)
{
   out->u[0] = out->u[1] = out->u[2] = 0;
   if (integer)
      out->u[3] = 1;
   else
      out->f[3] = 1.0f;
}

static void load_words(enum ppu_tex_format format, const void *src, uint64_t w[2])
{
   w[0] = w[1] = 0;
   memcpy(w, src, ppu_tex_format_bytes(format));
}

unsigned ppu_texel_format_components(enum ppu_tex_format format, bool stencil)
{
   if (stencil)
      return 0x1u;
   switch (format) {
   case PPU_TEX_FORMAT_BC1_RGB_UNORM:
   case PPU_TEX_FORMAT_BC1_RGB_SRGB:
   case PPU_TEX_FORMAT_BC6H_UFLOAT:
   case PPU_TEX_FORMAT_BC6H_SFLOAT:
      return 0x7u;
   case PPU_TEX_FORMAT_BC4_UNORM:
   case PPU_TEX_FORMAT_BC4_SNORM:
      return 0x1u;
   case PPU_TEX_FORMAT_BC5_UNORM:
   case PPU_TEX_FORMAT_BC5_SNORM:
      return 0x3u;
   case PPU_TEX_FORMAT_BC1_RGBA_UNORM:
   case PPU_TEX_FORMAT_BC1_RGBA_SRGB:
   case PPU_TEX_FORMAT_BC2_UNORM:
   case PPU_TEX_FORMAT_BC2_SRGB:
   case PPU_TEX_FORMAT_BC3_UNORM:
   case PPU_TEX_FORMAT_BC3_SRGB:
   case PPU_TEX_FORMAT_BC7_UNORM:
   case PPU_TEX_FORMAT_BC7_SRGB:
      return 0xfu;
   default:
      break;
   }
   const struct texel_layout *l = layout_of(format);
   unsigned mask = 0;
   for (unsigned i = 0; i < l->count; i++)
      mask |= 1u << l->ch[i].comp;
   return mask;
}

void ppu_texel_decode(enum ppu_tex_format format, const void *src, bool stencil,
                      struct ppu_texel *out)
{
   const struct texel_layout *l = layout_of(format);
   uint64_t w[2];
   if (stencil || l->kind == KIND_NONE) {
      /* The stencil aspect (0 for a format that has none), or nothing at
       * all for INVALID and block formats (ppu_texel_decode_block). */
      set_defaults(out, stencil);
      if (stencil && l->stencil.bits) {
         load_words(format, src, w);
         out->u[0] = (uint32_t)get_field(w, l->stencil);
      }
      return;
   }
   load_words(format, src, w);
   set_defaults(out, l->kind == KIND_UINT || l->kind == KIND_SINT);
   if (l->kind == KIND_SHARED_EXP) {
      texel_rgb9e5_decode((uint32_t)w[0], out->f);
      return;
   }
   for (unsigned i = 0; i < l->count; i++) {
      struct texel_channel ch = l->ch[i];
      uint64_t v = get_field(w, ch);
      switch (l->kind) {
      case KIND_UNORM:
         out->f[ch.comp] = texel_unorm_to_float((uint32_t)v, ch.bits);
         break;
      case KIND_SNORM:
         out->f[ch.comp] = texel_snorm_to_float(sign_extend(v, ch.bits), ch.bits);
         break;
      case KIND_UINT:
         out->u[ch.comp] = (uint32_t)v;
         break;
      case KIND_SINT:
         out->i[ch.comp] = sign_extend(v, ch.bits);
         break;
      case KIND_SRGB:
         /* Vulkan: the alpha of an sRGB format is linear. */
         out->f[ch.comp] = ch.comp == 3 ? texel_unorm_to_float((uint32_t)v, ch.bits)
                                        : texel_srgb8_to_linear((uint8_t)v);
         break;
      case KIND_SFLOAT:
         out->f[ch.comp] =
             ch.bits == 16 ? texel_half_to_float((uint16_t)v) : f32_from_bits((uint32_t)v);
         break;
      case KIND_UFLOAT:
         out->f[ch.comp] = texel_small_float_to_float((uint32_t)v, ch.bits - 5u, false);
         break;
      }
   }
}

/* Integer encodes saturate to the component's range: Vulkan leaves values
 * that do not fit undefined, and saturating is the choice that keeps a
 * clear to "all ones" (UINT32_MAX) meaning all ones in every format. */
static uint64_t encode_uint(uint32_t v, unsigned bits)
{
   uint64_t max = (1ull << bits) - 1;
   return v > max ? max : v;
}

static uint64_t encode_sint(int32_t v, unsigned bits)
{
   int64_t max = (1ll << (bits - 1)) - 1, min = -(1ll << (bits - 1));
   int64_t c = v > max ? max : v < min ? min : v;
   return (uint64_t)c & ((1ull << bits) - 1);
}

void ppu_texel_encode(enum ppu_tex_format format, const struct ppu_texel *in, bool stencil,
                      void *dst)
{
   const struct texel_layout *l = layout_of(format);
   unsigned bytes = ppu_tex_format_bytes(format);
   uint64_t w[2] = {0, 0};
   if (l->kind == KIND_NONE || (stencil && !l->stencil.bits))
      return; /* nothing to write: no such aspect, or a block format */
   /* A combined depth/stencil texel keeps the other aspect's bits; any
    * other format is written whole, unused bits 0. */
   if (is_combined_depth_stencil(format))
      memcpy(w, dst, bytes);
   if (stencil) {
      put_field(w, l->stencil, encode_uint(in->u[0], l->stencil.bits));
      memcpy(dst, w, bytes);
      return;
   }
   if (l->kind == KIND_SHARED_EXP) {
      uint32_t packed = texel_rgb9e5_encode(in->f);
      memcpy(dst, &packed, 4);
      return;
   }
   for (unsigned i = 0; i < l->count; i++) {
      struct texel_channel ch = l->ch[i];
      uint64_t v = 0;
      switch (l->kind) {
      case KIND_UNORM:
         v = texel_float_to_unorm(in->f[ch.comp], ch.bits);
         break;
      case KIND_SNORM:
         v = (uint64_t)(uint32_t)texel_float_to_snorm(in->f[ch.comp], ch.bits);
         break;
      case KIND_UINT:
         v = encode_uint(in->u[ch.comp], ch.bits);
         break;
      case KIND_SINT:
         v = encode_sint(in->i[ch.comp], ch.bits);
         break;
      case KIND_SRGB:
         v = ch.comp == 3 ? texel_float_to_unorm(in->f[ch.comp], ch.bits)
                          : texel_linear_to_srgb8(in->f[ch.comp]);
         break;
      case KIND_SFLOAT:
         v = ch.bits == 16 ? texel_float_to_small_float(in->f[ch.comp], 10, true)
                           : f32_bits(in->f[ch.comp]);
         break;
      case KIND_UFLOAT:
         v = texel_float_to_small_float(in->f[ch.comp], ch.bits - 5u, false);
         break;
      }
      put_field(w, ch, v);
   }
   memcpy(dst, w, bytes);
}

void ppu_texel_decode_block(enum ppu_tex_format format, const void *block, struct ppu_texel out[16])
{
   const uint8_t *b = block;
   switch (format) {
   case PPU_TEX_FORMAT_BC6H_UFLOAT:
   case PPU_TEX_FORMAT_BC6H_SFLOAT:
      texel_decode_bc6h(b, format == PPU_TEX_FORMAT_BC6H_SFLOAT, out);
      return;
   case PPU_TEX_FORMAT_BC7_UNORM:
   case PPU_TEX_FORMAT_BC7_SRGB:
      texel_decode_bc7(b, format == PPU_TEX_FORMAT_BC7_SRGB, out);
      return;
   default:
      if (ppu_tex_format_is_compressed(format)) {
         texel_decode_bc1_to_4(format, b, out);
         return;
      }
      /* Not a block format: a caller error, answered with (0, 0, 0, 1)
       * rather than a read of memory the caller did not mean. */
      for (unsigned i = 0; i < 16; i++)
         set_defaults(&out[i], false);
   }
}
