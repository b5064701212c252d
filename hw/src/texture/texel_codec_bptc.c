/* BPTC blocks: BC7 (RGBA UNORM / sRGB) and BC6H (RGB half floats, signed
 * and unsigned), decoded bit-exactly as the BPTC specification defines
 * them: the appendix "BPTC Compressed Texture Image Format" of
 * ARB_texture_compression_bptc, which is the same text as the Khronos
 * Data Format Specification 1.3, chapter 23 "BPTC Compressed Texture Image
 * Formats". Table names in comments (Table.M, Table.P2, ...) are the
 * appendix's. Reserved encodings decode to what the specification says:
 * BC7 with a zero first byte ("mode 8") to (0, 0, 0, 0), a BC6H reserved
 * mode to (0, 0, 0, 1). */
#include <string.h>

#include "texture/texel_codec_internal.h"

/* Table.P2: subset (0 or 1) of each texel for the 64 two-subset
 * partitions, texel t in bit t (texels in x-major order). */
static const uint16_t partition2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80,
    0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310,
    0x3100, 0x8cce, 0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa,
    0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc,
    0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6,
    0x639c, 0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
    /* Table.P3: subset (0..2) of each texel for the 64 three-subset
     * partitions, texel t in bits 2t+1..2t. */
};
static const uint32_t partition3[64] = {
    0xaa685050,
    0x6a5a5040,
    0x5a5a4200,
    0x5450a0a8,
    0xa5a50000,
    0xa0a05050,
    0x5555a0a0,
    0x5a5a5050,
    0xaa550000,
    0xaa555500,
    0xaaaa5500,
    0x90909090,
    0x94949494,
    0xa4a4a4a4,
    0xa9a59450,
    0x2a0a4250,
    0xa5945040,
    0x0a425054,
    0xa5a5a500,
    0x55a0a0a0,
    0xa8a85454,
    0x6a6a4040,
    0xa4a45000,
    0x1a1a0500,
    0x0050a4a4,
    0xaaa59090,
    0x14696914,
    0x69691400,
    0xa08585a0,
    0xaa821414,
    0x50a4a450,
    0x6a5a0200,
    0xa9a58000,
    0x5090a0a8,
    0xa8a09050,
    0x24242424,
    0x00aa5500,
    0x24924924,
    0x24499224,
    0x50a50a50,
    0x500aa550,
    0xaaaa4444,
    0x66660000,
    0xa5a0a5a0,
    0x50a050a0,
    0x69286928,
    0x44aaaa44,
    0x66666600,
    0xaa444444,
    0x54a854a8,
    0x95809580,
    0x96969600,
    0xa85454a8,
    0x80959580,
    0xaa141414,
    0x96960000,
    0xaaaa1414,
    0xa05050a0,
    0xa0a5a5a0,
    0x96000000,
    /* Table.A2, Table.A3a, Table.A3b: the anchor texel of the second (and
     * third) subset, whose index is stored with one bit less. Subset 0's
     * anchor is always texel 0. */
    0x40804080,
    0xa9a8a9a8,
    0xaaaaaa44,
    0x2a4a5254,
};
static const uint8_t anchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2,  2, 8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8,  2, 2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15,
};
static const uint8_t anchor3_second[64] = {
    3,  3,  15, 15, 8, 3,  15, 15, 8,  8,  6, 6,  6, 5,  3, 3,  3,  3,  8,  15, 3,  3,
    6,  10, 5,  8,  8, 6,  8,  5,  15, 15, 8, 15, 3, 5,  6, 10, 8,  15, 15, 3,  15, 5,
    15, 15, 15, 15, 3, 15, 5,  5,  5,  8,  5, 10, 5, 10, 8, 13, 15, 12, 3,  3,
};
static const uint8_t anchor3_third[64] = {
    15, 8, 8, 3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
    15, 8, 3, 15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
    3,  6, 6, 8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,
};

/* Interpolation weights of 2-, 3- and 4-bit indices (out of 64). */
static const uint8_t weights2[4] = {0, 21, 43, 64};
static const uint8_t weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
static const uint8_t weights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

static const uint8_t *weights_for(unsigned index_bits)
{
   return index_bits == 2 ? weights2 : index_bits == 3 ? weights3 : weights4;
}

static unsigned subset_of(unsigned subsets, unsigned partition, unsigned texel)
{
   if (subsets == 2)
      return (partition2[partition] >> texel) & 1u;
   if (subsets == 3)
      return (partition3[partition] >> (2 * texel)) & 3u;
   return 0;
}

static bool is_anchor(unsigned subsets, unsigned partition, unsigned texel)
{
   if (texel == 0)
      return true;
   if (subsets == 2)
      return texel == anchor2[partition];
   if (subsets == 3)
      return texel == anchor3_second[partition] || texel == anchor3_third[partition];
   return false;
}

/* Reads the 16 indices of index_bits each, the anchors one bit shorter,
 * starting at *pos. */
static void read_indices(const uint8_t *block, unsigned *pos, unsigned subsets, unsigned partition,
                         unsigned index_bits, uint8_t idx[16])
{
   for (unsigned t = 0; t < 16; t++) {
      unsigned n = index_bits - (is_anchor(subsets, partition, t) ? 1u : 0u);
      idx[t] = (uint8_t)texel_block_bits(block, *pos, n);
      *pos += n;
   }
}

/* The specification's interpolation, for BC7 (0..255) and BC6H (signed
 * 17-bit) endpoints: (e0 * (64 - w) + e1 * w + 32) >> 6, with the shift
 * rounding towards minus infinity also for negative sums. */
static int32_t bptc_interpolate(int32_t e0, int32_t e1, unsigned w)
{
   int32_t sum = e0 * (int32_t)(64 - w) + e1 * (int32_t)w + 32;
   return sum >= 0 ? sum / 64 : -((-sum + 63) / 64);
}

/* ---------------------------------------------------------------------------
 * BC7
 * ------------------------------------------------------------------------- */

/* Table.M. */
struct bc7_mode {
   uint8_t subsets, partition_bits, rotation_bits, index_selection_bits;
   uint8_t color_bits, alpha_bits, endpoint_pbits, shared_pbits;
   uint8_t index_bits, index2_bits;
};

static const struct bc7_mode bc7_modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

/* An endpoint component of n bits (P-bit included) as a byte: the bits at
 * the top, the top bits replicated below them. */
static uint32_t bc7_expand(uint32_t v, unsigned n)
{
   return n >= 8 ? v : (v << (8 - n)) | (v >> (2 * n - 8));
}

void texel_decode_bc7(const uint8_t *block, bool srgb, struct ppu_texel out[16])
{
   if (block[0] == 0) { /* reserved: no mode bit in the first byte */
      memset(out, 0, 16 * sizeof(*out));
      return;
   }
   unsigned mode = 0;
   while (!((block[0] >> mode) & 1u))
      mode++;
   const struct bc7_mode *m = &bc7_modes[mode];
   unsigned pos = mode + 1;
   unsigned partition = texel_block_bits(block, pos, m->partition_bits);
   pos += m->partition_bits;
   unsigned rotation = texel_block_bits(block, pos, m->rotation_bits);
   pos += m->rotation_bits;
   unsigned index_selection = texel_block_bits(block, pos, m->index_selection_bits);
   pos += m->index_selection_bits;

   /* Endpoints: by component, then subset, then endpoint (R of subset 0
    * endpoint 0, R of subset 0 endpoint 1, R of subset 1 ...); alpha after
    * the colors, or 255 when the mode has none. */
   uint32_t ep[3][2][4];
   for (unsigned c = 0; c < 4; c++) {
      unsigned bits = c < 3 ? m->color_bits : m->alpha_bits;
      for (unsigned s = 0; s < m->subsets; s++)
         for (unsigned e = 0; e < 2; e++) {
            ep[s][e][c] = texel_block_bits(block, pos, bits);
            pos += bits;
         }
   }
   uint32_t pbit[3][2] = {{0}};
   for (unsigned s = 0; s < m->subsets; s++)
      for (unsigned e = 0; e < 2; e++) {
         if (m->endpoint_pbits) {
            pbit[s][e] = texel_block_bits(block, pos++, 1);
         } else if (m->shared_pbits) {
            if (e == 0)
               pbit[s][0] = texel_block_bits(block, pos++, 1);
            pbit[s][1] = pbit[s][0];
         }
      }
   bool has_pbit = m->endpoint_pbits || m->shared_pbits;
   for (unsigned s = 0; s < m->subsets; s++)
      for (unsigned e = 0; e < 2; e++)
         for (unsigned c = 0; c < 4; c++) {
            unsigned bits = c < 3 ? m->color_bits : m->alpha_bits;
            if (bits == 0) {
               ep[s][e][c] = 255;
               continue;
            }
            uint32_t v = ep[s][e][c];
            if (has_pbit) {
               v = (v << 1) | pbit[s][e];
               bits++;
            }
            ep[s][e][c] = bc7_expand(v, bits);
         }

   uint8_t idx[16], idx2[16];
   read_indices(block, &pos, m->subsets, partition, m->index_bits, idx);
   if (m->index2_bits)
      read_indices(block, &pos, 1, 0, m->index2_bits, idx2);

   /* Color takes the secondary indices when the index selection bit is 1;
    * alpha takes them when they exist and that bit is 0 (or absent). */
   bool color_secondary = m->index_selection_bits && index_selection;
   bool alpha_secondary = m->index2_bits && !color_secondary;
   for (unsigned t = 0; t < 16; t++) {
      unsigned s = subset_of(m->subsets, partition, t);
      unsigned ci = color_secondary ? idx2[t] : idx[t], ai = alpha_secondary ? idx2[t] : idx[t];
      unsigned cw = weights_for(color_secondary ? m->index2_bits : m->index_bits)[ci];
      unsigned aw = weights_for(alpha_secondary ? m->index2_bits : m->index_bits)[ai];
      uint32_t rgba[4];
      for (unsigned c = 0; c < 4; c++)
         rgba[c] = (uint32_t)bptc_interpolate((int32_t)ep[s][0][c], (int32_t)ep[s][1][c],
                                              c < 3 ? cw : aw);
      if (rotation) { /* 1: swap(a, r), 2: swap(a, g), 3: swap(a, b) */
         uint32_t tmp = rgba[3];
         rgba[3] = rgba[rotation - 1];
         rgba[rotation - 1] = tmp;
      }
      for (unsigned c = 0; c < 4; c++)
         out[t].f[c] = srgb && c < 3 ? texel_srgb8_to_linear((uint8_t)rgba[c])
                                     : texel_unorm_to_float(rgba[c], 8);
   }
}

/* ---------------------------------------------------------------------------
 * BC6H
 * ------------------------------------------------------------------------- */

/* One field v[a:b] of Table.F: v is the endpoint variable (endpoint * 3 +
 * component: r0 g0 b0 r1 ... b3), a and b as the table writes them. */
struct bc6h_field {
   uint8_t var, a, b;
};

/* Table.MF and Table.F (mode bits left out: they are not endpoint bits). */
struct bc6h_mode {
   uint8_t mode, transformed, partition_bits, endpoint_bits;
   uint8_t delta_bits[3];
   uint8_t field_count;
   struct bc6h_field fields[23];
};

/* One mode per line, in the order the specification lists them. */
// clang-format off
static const struct bc6h_mode bc6h_modes[14] = {
    {0, 1, 5, 10, {5, 5, 5}, 19, {{7, 4, 4}, {8, 4, 4}, {11, 4, 4}, {0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3}}},
    {1, 1, 5, 7, {6, 6, 6}, 23, {{7, 5, 5}, {10, 4, 4}, {10, 5, 5}, {0, 6, 0}, {11, 0, 0}, {11, 1, 1}, {8, 4, 4}, {1, 6, 0}, {8, 5, 5}, {11, 2, 2}, {7, 4, 4}, {2, 6, 0}, {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0}, {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}}},
    {2, 1, 5, 11, {5, 4, 4}, 18, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 4, 0}, {0, 10, 10}, {7, 3, 0}, {4, 3, 0}, {1, 10, 10}, {11, 0, 0}, {10, 3, 0}, {5, 3, 0}, {2, 10, 10}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3}}},
    {6, 1, 5, 11, {4, 5, 4}, 20, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {1, 10, 10}, {10, 3, 0}, {5, 3, 0}, {2, 10, 10}, {11, 1, 1}, {8, 3, 0}, {6, 3, 0}, {11, 0, 0}, {11, 2, 2}, {9, 3, 0}, {7, 4, 4}, {11, 3, 3}}},
    {10, 1, 5, 11, {4, 4, 5}, 20, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {8, 4, 4}, {7, 3, 0}, {4, 3, 0}, {1, 10, 10}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {2, 10, 10}, {8, 3, 0}, {6, 3, 0}, {11, 1, 1}, {11, 2, 2}, {9, 3, 0}, {11, 4, 4}, {11, 3, 3}}},
    {14, 1, 5, 9, {5, 5, 5}, 19, {{0, 8, 0}, {8, 4, 4}, {1, 8, 0}, {7, 4, 4}, {2, 8, 0}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3}}},
    {18, 1, 5, 8, {6, 5, 5}, 19, {{0, 7, 0}, {10, 4, 4}, {8, 4, 4}, {1, 7, 0}, {11, 2, 2}, {7, 4, 4}, {2, 7, 0}, {11, 3, 3}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}}},
    {22, 1, 5, 8, {5, 6, 5}, 21, {{0, 7, 0}, {11, 0, 0}, {8, 4, 4}, {1, 7, 0}, {7, 5, 5}, {7, 4, 4}, {2, 7, 0}, {10, 5, 5}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 5, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3}}},
    {26, 1, 5, 8, {5, 5, 6}, 21, {{0, 7, 0}, {11, 1, 1}, {8, 4, 4}, {1, 7, 0}, {8, 5, 5}, {7, 4, 4}, {2, 7, 0}, {11, 5, 5}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3}}},
    {30, 0, 5, 6, {6, 6, 6}, 23, {{0, 5, 0}, {10, 4, 4}, {11, 0, 0}, {11, 1, 1}, {8, 4, 4}, {1, 5, 0}, {7, 5, 5}, {8, 5, 5}, {11, 2, 2}, {7, 4, 4}, {2, 5, 0}, {10, 5, 5}, {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0}, {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}}},
    {3, 0, 0, 10, {10, 10, 10}, 6, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 9, 0}, {4, 9, 0}, {5, 9, 0}}},
    {7, 1, 0, 11, {9, 9, 9}, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 8, 0}, {0, 10, 10}, {4, 8, 0}, {1, 10, 10}, {5, 8, 0}, {2, 10, 10}}},
    {11, 1, 0, 12, {8, 8, 8}, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 7, 0}, {0, 10, 11}, {4, 7, 0}, {1, 10, 11}, {5, 7, 0}, {2, 10, 11}}},
    {15, 1, 0, 16, {4, 4, 4}, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 15}, {4, 3, 0}, {1, 10, 15}, {5, 3, 0}, {2, 10, 15}}},
};
// clang-format on

/* v[a:b] with a >= b takes a - b + 1 bits, the block's first (lowest)
 * bit into v's bit b and on upwards to a. With a < b the bits are
 * "reversed": the first block bit goes to bit b, the next to b - 1, ...,
 * the last to bit a. Either way the first bit lands at b and the rest walk
 * towards a. */
static void bc6h_read_field(const uint8_t *block, unsigned *pos, struct bc6h_field f, int32_t *v)
{
   int step = f.a >= f.b ? 1 : -1;
   unsigned n = (unsigned)(f.a >= f.b ? f.a - f.b : f.b - f.a) + 1;
   int bit = f.b;
   for (unsigned i = 0; i < n; i++, bit += step)
      v[f.var] |= (int32_t)(texel_block_bits(block, (*pos)++, 1) << bit);
}

static int32_t sign_extend_bits(int32_t v, unsigned bits)
{
   uint32_t m = 1u << (bits - 1);
   uint32_t u = (uint32_t)v & ((bits >= 32 ? 0u : (1u << bits)) - 1u);
   return (int32_t)(u ^ m) - (int32_t)m;
}

/* The appendix's unquantization of an endpoint of `bits` bits. */
static int32_t bc6h_unquantize(int32_t x, unsigned bits, bool is_signed)
{
   if (!is_signed) {
      if (bits >= 15 || x == 0)
         return x;
      if (x == (1 << bits) - 1)
         return 0xffff;
      return ((x << 15) + 0x4000) >> (bits - 1);
   }
   if (bits >= 16)
      return x;
   bool negative = x < 0;
   int32_t a = negative ? -x : x, unq;
   if (a == 0)
      unq = 0;
   else if (a >= (1 << (bits - 1)) - 1)
      unq = 0x7fff;
   else
      unq = ((a << 15) + 0x4000) >> (bits - 1);
   return negative ? -unq : unq;
}

/* The final step: unsigned * 31/64, signed magnitude * 31/32 with the sign
 * or'ed back in; the result is a half float's bits. */
static uint16_t bc6h_finish(int32_t v, bool is_signed)
{
   if (!is_signed)
      return (uint16_t)((v * 31) >> 6);
   if (v < 0)
      return (uint16_t)((((-v) * 31) >> 5) | 0x8000);
   return (uint16_t)((v * 31) >> 5);
}

void texel_decode_bc6h(const uint8_t *block, bool is_signed, struct ppu_texel out[16])
{
   /* The mode is the low two bits when they are 0 or 1, else the low five. */
   unsigned mode_number = texel_block_bits(block, 0, 2);
   if (mode_number >= 2)
      mode_number = texel_block_bits(block, 0, 5);
   const struct bc6h_mode *m = NULL;
   for (unsigned i = 0; i < 14; i++)
      if (bc6h_modes[i].mode == mode_number)
         m = &bc6h_modes[i];
   for (unsigned t = 0; t < 16; t++) {
      out[t].f[0] = out[t].f[1] = out[t].f[2] = 0.0f;
      out[t].f[3] = 1.0f;
   }
   if (!m)
      return; /* reserved mode (19, 23, 27, 31): (0, 0, 0, 1) */

   int32_t v[12] = {0};
   unsigned pos = mode_number < 2 ? 2 : 5;
   for (unsigned i = 0; i < m->field_count; i++)
      bc6h_read_field(block, &pos, m->fields[i], v);
   unsigned subsets = m->partition_bits ? 2 : 1;
   unsigned partition = texel_block_bits(block, pos, m->partition_bits);
   pos += m->partition_bits;

   /* Sign extension and the inverse transform: e0 is signed in the signed
    * format; the others when the format is signed or the mode transformed,
    * at their own width; transformed endpoints are e0 plus a delta, wrapped
    * at endpoint_bits (and sign-extended again in the signed format). */
   unsigned eb = m->endpoint_bits;
   int32_t mask = (int32_t)((1u << eb) - 1u);
   for (unsigned c = 0; c < 3; c++) {
      if (is_signed)
         v[c] = sign_extend_bits(v[c], eb);
      for (unsigned e = 1; e < 2 * subsets; e++) {
         int32_t *x = &v[e * 3 + c];
         if (is_signed || m->transformed)
            *x = sign_extend_bits(*x, m->delta_bits[c]);
         if (m->transformed) {
            *x = (v[c] + *x) & mask;
            if (is_signed)
               *x = sign_extend_bits(*x, eb);
         }
      }
   }
   for (unsigned i = 0; i < 6 * subsets; i++)
      v[i] = bc6h_unquantize(v[i], eb, is_signed);

   uint8_t idx[16];
   unsigned index_bits = subsets == 2 ? 3 : 4;
   read_indices(block, &pos, subsets, partition, index_bits, idx);
   const uint8_t *w = weights_for(index_bits);
   for (unsigned t = 0; t < 16; t++) {
      unsigned s = subset_of(subsets, partition, t);
      for (unsigned c = 0; c < 3; c++) {
         int32_t x = bptc_interpolate(v[s * 6 + c], v[s * 6 + 3 + c], w[idx[t]]);
         out[t].f[c] = texel_half_to_float(bc6h_finish(x, is_signed));
      }
   }
}
