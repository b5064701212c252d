/* BC1 to BC5 blocks (Khronos Data Format Specification 1.3, chapter 21
 * "S3TC Compressed Texture Image Formats" for BC1-BC3 and chapter 22
 * "RGTC Compressed Texture Image Formats" for BC4/BC5).
 *
 * Those chapters define the palette entries as real-number mixes of the
 * endpoints, e.g. (2 c0 + c1) / 3 of the normalized endpoint values, and
 * leave the precision open. Here each palette value is the exact rational
 * number, computed in double (all operands are small integers, so it is
 * exact before the one rounding) and rounded once to float; for the sRGB
 * variants the EOTF is applied to that rational value and rounded once.
 * That is a single, well-defined answer the tests can derive by hand.
 * Every 64/128-bit pattern is a valid block of these formats. */
#include "texture/texel_codec_internal.h"

static float bc_color(double encoded, bool srgb)
{
   return srgb ? texel_srgb_to_linear(encoded) : (float)encoded;
}

static uint32_t load_le32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The BC1 color block, also the color half of BC2 and BC3. With
 * force_four_color (BC2/BC3, KDF sections 21.2 and 21.3) the c0 <= c1
 * three-color mode does not exist. In BC1's three-color mode index 3 is
 * black: opaque for the RGB formats, transparent for RGBA (KDF 21.1). */
static void decode_bc1_color(const uint8_t *b, bool srgb, bool force_four_color, bool rgba,
                             struct ppu_texel out[16])
{
   uint32_t c0 = b[0] | (uint32_t)b[1] << 8, c1 = b[2] | (uint32_t)b[3] << 8;
   uint32_t indices = load_le32(b + 4);
   const unsigned shift[3] = {11, 5, 0}, max[3] = {31, 63, 31};
   float palette[4][4];
   bool four = force_four_color || c0 > c1;
   for (unsigned ch = 0; ch < 3; ch++) {
      double e0 = (c0 >> shift[ch]) & max[ch], e1 = (c1 >> shift[ch]) & max[ch];
      double m = max[ch];
      palette[0][ch] = bc_color(e0 / m, srgb);
      palette[1][ch] = bc_color(e1 / m, srgb);
      if (four) {
         palette[2][ch] = bc_color((2 * e0 + e1) / (3 * m), srgb);
         palette[3][ch] = bc_color((e0 + 2 * e1) / (3 * m), srgb);
      } else {
         palette[2][ch] = bc_color((e0 + e1) / (2 * m), srgb);
         palette[3][ch] = 0.0f;
      }
   }
   for (unsigned i = 0; i < 4; i++)
      palette[i][3] = 1.0f;
   if (!four && rgba)
      palette[3][3] = 0.0f;
   for (unsigned t = 0; t < 16; t++) {
      unsigned idx = (indices >> (2 * t)) & 3u;
      for (unsigned ch = 0; ch < 4; ch++)
         out[t].f[ch] = palette[idx][ch];
   }
}

/* One BC4 channel (also BC3's alpha and each BC5 channel), KDF 22.1/22.2:
 * with r0 > r1 eight values interpolated in sevenths, else six in fifths
 * plus the two extremes. SNORM endpoints -128 and -127 both mean -1.0 (the
 * SNORM conversion rule); the r0 > r1 test uses the raw signed values. */
static void decode_bc4_channel(const uint8_t *b, bool snorm, struct ppu_texel out[16], unsigned ch)
{
   int r0 = snorm ? (int8_t)b[0] : b[0], r1 = snorm ? (int8_t)b[1] : b[1];
   bool eight = r0 > r1;
   double scale = snorm ? 127.0 : 255.0;
   double e0 = snorm && r0 < -127 ? -127 : r0, e1 = snorm && r1 < -127 ? -127 : r1;
   float v[8];
   v[0] = (float)(e0 / scale);
   v[1] = (float)(e1 / scale);
   for (int i = 2; i < 8; i++) {
      if (eight)
         v[i] = (float)(((8 - i) * e0 + (i - 1) * e1) / (7 * scale));
      else if (i < 6)
         v[i] = (float)(((6 - i) * e0 + (i - 1) * e1) / (5 * scale));
      else
         v[i] = i == 6 ? (snorm ? -1.0f : 0.0f) : 1.0f;
   }
   for (unsigned t = 0; t < 16; t++)
      out[t].f[ch] = v[texel_block_bits(b, 16 + 3 * t, 3)];
}

void texel_decode_bc1_to_4(enum ppu_tex_format format, const uint8_t *b, struct ppu_texel out[16])
{
   switch (format) {
   case PPU_TEX_FORMAT_BC1_RGB_UNORM:
   case PPU_TEX_FORMAT_BC1_RGB_SRGB:
   case PPU_TEX_FORMAT_BC1_RGBA_UNORM:
   case PPU_TEX_FORMAT_BC1_RGBA_SRGB:
      decode_bc1_color(
          b, format == PPU_TEX_FORMAT_BC1_RGB_SRGB || format == PPU_TEX_FORMAT_BC1_RGBA_SRGB, false,
          format == PPU_TEX_FORMAT_BC1_RGBA_UNORM || format == PPU_TEX_FORMAT_BC1_RGBA_SRGB, out);
      return;
   case PPU_TEX_FORMAT_BC2_UNORM:
   case PPU_TEX_FORMAT_BC2_SRGB:
      /* KDF 21.2: 4-bit explicit alpha per texel, then a color block. */
      decode_bc1_color(b + 8, format == PPU_TEX_FORMAT_BC2_SRGB, true, false, out);
      for (unsigned t = 0; t < 16; t++)
         out[t].f[3] = texel_unorm_to_float((b[t / 2] >> (4 * (t & 1))) & 0xfu, 4);
      return;
   case PPU_TEX_FORMAT_BC3_UNORM:
   case PPU_TEX_FORMAT_BC3_SRGB:
      /* KDF 21.3: a BC4-style alpha block, then a color block. */
      decode_bc1_color(b + 8, format == PPU_TEX_FORMAT_BC3_SRGB, true, false, out);
      decode_bc4_channel(b, false, out, 3);
      return;
   case PPU_TEX_FORMAT_BC4_UNORM:
   case PPU_TEX_FORMAT_BC4_SNORM:
   case PPU_TEX_FORMAT_BC5_UNORM:
   case PPU_TEX_FORMAT_BC5_SNORM: {
      bool snorm = format == PPU_TEX_FORMAT_BC4_SNORM || format == PPU_TEX_FORMAT_BC5_SNORM;
      bool two = format == PPU_TEX_FORMAT_BC5_UNORM || format == PPU_TEX_FORMAT_BC5_SNORM;
      for (unsigned t = 0; t < 16; t++) {
         out[t].f[1] = out[t].f[2] = 0.0f;
         out[t].f[3] = 1.0f;
      }
      decode_bc4_channel(b, snorm, out, 0);
      if (two)
         decode_bc4_channel(b + 8, snorm, out, 1);
      return;
   }
   default:
      for (unsigned t = 0; t < 16; t++) {
         out[t].f[0] = out[t].f[1] = out[t].f[2] = 0.0f;
         out[t].f[3] = 1.0f;
      }
   }
}
