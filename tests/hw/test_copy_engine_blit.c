/* Copy engine BLIT (Vulkan's vkCmdBlitImage) against a CPU reference
 * written from the spec's "Image Copies With Scaling" formulas in double
 * precision: 2x downscale with LINEAR is an exact box average, NEAREST
 * upscales, mirrored corners, format conversions (UNORM <-> float, sRGB,
 * BC1 sources), 3D boxes, array layers, integer and stencil blits, and
 * BAD_METHOD_DATA for every bad input before anything is written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_test_util.h"
#include "ppu/texture.h"
#include "test_harness.h"
#include "tex_test_util.h" /* tt_header */
#include "texture/texel_codec.h"

#define TEST_VRAM (256ull << 20)

static struct hwt t;

static uint32_t rng_state = 4242;
static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

struct image {
   uint64_t header_va;
   struct ppu_texture_header h;
};

/* A block-linear image (tt_header's shape) on scattered pages, with its
 * header in GPU memory. */
static struct image make_image(unsigned format, unsigned dim, uint32_t w, uint32_t h, uint32_t d,
                               unsigned levels, uint32_t layers)
{
   struct image img;
   memset(&img, 0, sizeof(img));
   tt_header(&img.h, format, dim, w, h, d, levels, layers);
   img.h.address = hwt_alloc_scattered(&t, img.h.layer_stride * layers + PPU_PAGE_SIZE);
   img.header_va = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true) + 192;
   hwt_write(&t.mem, t.pd, img.header_va, &img.h, sizeof(img.h));
   return img;
}

static uint64_t texel_va(const struct image *img, unsigned level, uint32_t layer, uint32_t x,
                         uint32_t y, uint32_t z)
{
   uint32_t eb = ppu_tex_format_bytes(img->h.format);
   return img->h.address + ppu_tex_byte_offset(&img->h, level, layer, x * eb, y, z);
}

static void put(const struct image *img, unsigned level, uint32_t layer, uint32_t x, uint32_t y,
                uint32_t z, const void *bytes)
{
   hwt_write(&t.mem, t.pd, texel_va(img, level, layer, x, y, z), bytes,
             ppu_tex_format_bytes(img->h.format));
}

static void get(const struct image *img, unsigned level, uint32_t layer, uint32_t x, uint32_t y,
                uint32_t z, void *bytes)
{
   hwt_read(&t.mem, t.pd, texel_va(img, level, layer, x, y, z), bytes,
            ppu_tex_format_bytes(img->h.format));
}

static uint32_t level_extent(const struct image *img, unsigned level, unsigned axis)
{
   if (axis == 2 && img->h.dim != PPU_TEX_DIM_3D)
      return 1;
   uint32_t e = axis == 0 ? img->h.width : axis == 1 ? img->h.height : img->h.depth;
   return ppu_tex_level_extent(e, level);
}

/* Fills a level of every layer with random bytes (floats: small integers
 * 0..1023, so sums and quarter averages are exact). */
static void fill_random(const struct image *img, unsigned level)
{
   uint32_t eb = ppu_tex_format_bytes(img->h.format);
   bool f32 = img->h.format == PPU_TEX_FORMAT_R32G32B32A32_SFLOAT;
   for (uint32_t l = 0; l < img->h.layer_count; l++)
      for (uint32_t z = 0; z < level_extent(img, level, 2); z++)
         for (uint32_t y = 0; y < level_extent(img, level, 1); y++)
            for (uint32_t x = 0; x < level_extent(img, level, 0); x++) {
               uint8_t b[16];
               for (unsigned i = 0; i < eb; i++)
                  b[i] = (uint8_t)rng();
               if (f32)
                  for (unsigned c = 0; c < 4; c++) {
                     float v = (float)(rng() % 1024);
                     memcpy(b + 4 * c, &v, 4);
                  }
               put(img, level, l, x, y, z, b);
            }
}

/* The whole blit state: image-operation words, then corners and FILTER. */
struct blit_op {
   uint64_t src_header, dst_header;
   uint32_t src_level, src_layer, dst_level, dst_layer, layer_count;
   uint32_t aspect;
   int32_t src[2][3], dst[2][3];
   uint32_t filter;
};

static void emit(struct hwt_pb *pb, const struct blit_op *op)
{
   uint32_t img[PPU_COPY_CLEAR_VALUE_3 - PPU_COPY_SRC_HEADER_LO + 1] = {0};
   img[PPU_COPY_SRC_HEADER_LO - PPU_COPY_SRC_HEADER_LO] = (uint32_t)op->src_header;
   img[PPU_COPY_SRC_HEADER_HI - PPU_COPY_SRC_HEADER_LO] = (uint32_t)(op->src_header >> 32);
   img[PPU_COPY_DST_HEADER_LO - PPU_COPY_SRC_HEADER_LO] = (uint32_t)op->dst_header;
   img[PPU_COPY_DST_HEADER_HI - PPU_COPY_SRC_HEADER_LO] = (uint32_t)(op->dst_header >> 32);
   img[PPU_COPY_SRC_LEVEL - PPU_COPY_SRC_HEADER_LO] = op->src_level;
   img[PPU_COPY_SRC_LAYER - PPU_COPY_SRC_HEADER_LO] = op->src_layer;
   img[PPU_COPY_DST_LEVEL - PPU_COPY_SRC_HEADER_LO] = op->dst_level;
   img[PPU_COPY_DST_LAYER - PPU_COPY_SRC_HEADER_LO] = op->dst_layer;
   img[PPU_COPY_LAYER_COUNT - PPU_COPY_SRC_HEADER_LO] = op->layer_count;
   img[PPU_COPY_ASPECT - PPU_COPY_SRC_HEADER_LO] = op->aspect;
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_HEADER_LO, sizeof(img) / 4, img);
   uint32_t blit[PPU_COPY_FILTER - PPU_COPY_SRC_X0 + 1];
   for (unsigned c = 0; c < 2; c++)
      for (unsigned a = 0; a < 3; a++) {
         blit[c * 3 + a] = (uint32_t)op->src[c][a];
         blit[6 + c * 3 + a] = (uint32_t)op->dst[c][a];
      }
   blit[12] = op->filter;
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_X0, sizeof(blit) / 4, blit);
   const uint32_t launch = PPU_COPY_OP_BLIT;
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, 1, &launch);
}

static bool run(const struct blit_op *op)
{
   struct hwt_channel c;
   if (!hwt_channel_init(&c, &t, "blit"))
      return false;
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   emit(&pb, op);
   hwt_submit(&c, &pb);
   bool ok = hwt_sync(&c, 20000);
   hwt_channel_finish(&c);
   return ok;
}

/* --- The reference: Vulkan "Image Copies With Scaling" ------------------- */

static void decode(unsigned format, const uint8_t *b, double out[4])
{
   /* The texel codec is the definition of each format's decoding (checked
    * against the spec in test_texel_codec.c); sRGB is decoded here from
    * the spec's EOTF so the blit's own decode is checked too. */
   struct ppu_texel tx;
   if (format == PPU_TEX_FORMAT_R8G8B8A8_SRGB) {
      for (unsigned c = 0; c < 3; c++) {
         double v = b[c] / 255.0;
         out[c] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
      }
      out[3] = b[3] / 255.0;
      return;
   }
   ppu_texel_decode((enum ppu_tex_format)format, b, false, &tx);
   enum ppu_texel_class cls = ppu_texel_format_class((enum ppu_tex_format)format);
   for (unsigned c = 0; c < 4; c++)
      out[c] = cls == PPU_TEXEL_CLASS_FLOAT  ? tx.f[c]
               : cls == PPU_TEXEL_CLASS_UINT ? (double)tx.u[c]
                                             : (double)tx.i[c];
}

static int32_t clampi(int32_t i, int32_t n)
{
   return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* The expected value of destination texel (x, y, z) of a plane. */
static void reference(const struct image *src, const struct blit_op *op, uint32_t src_layer,
                      int32_t x, int32_t y, int32_t z, double out[4])
{
   int32_t d[3] = {x, y, z};
   double u[3];
   for (unsigned a = 0; a < 3; a++) {
      double scale = (double)(op->src[1][a] - op->src[0][a]) / (op->dst[1][a] - op->dst[0][a]);
      u[a] = op->src[0][a] + (d[a] + 0.5 - op->dst[0][a]) * scale;
   }
   unsigned dims = src->h.dim == PPU_TEX_DIM_3D ? 3 : src->h.dim == PPU_TEX_DIM_1D ? 1 : 2;
   int32_t n[3];
   for (unsigned a = 0; a < 3; a++)
      n[a] = (int32_t)level_extent(src, op->src_level, a);
   memset(out, 0, 4 * sizeof(double));
   bool linear = op->filter == PPU_COPY_FILTER_LINEAR;
   int32_t i0[3];
   double frac[3] = {0, 0, 0};
   for (unsigned a = 0; a < 3; a++) {
      double v = linear && a < dims ? u[a] - 0.5 : u[a];
      i0[a] = (int32_t)floor(v);
      frac[a] = v - floor(v);
   }
   unsigned corners = linear ? 1u << dims : 1u;
   for (unsigned c = 0; c < corners; c++) {
      double w = 1.0;
      int32_t p[3];
      for (unsigned a = 0; a < 3; a++) {
         unsigned hi = linear && a < dims ? (c >> a) & 1u : 0u;
         if (linear && a < dims)
            w *= hi ? frac[a] : 1.0 - frac[a];
         p[a] = clampi(i0[a] + (int32_t)hi, n[a]);
      }
      uint8_t b[16];
      uint32_t layer = src->h.dim == PPU_TEX_DIM_3D ? 0 : src_layer;
      double v[4];
      if (ppu_tex_format_is_compressed(src->h.format)) {
         /* The texel of its decoded 4x4 block (the codec defines BC). */
         get(src, op->src_level, layer, (uint32_t)p[0] / 4, (uint32_t)p[1] / 4, 0, b);
         struct ppu_texel block[16];
         ppu_texel_decode_block((enum ppu_tex_format)src->h.format, b, block);
         for (unsigned k = 0; k < 4; k++)
            v[k] = block[(p[1] % 4) * 4 + p[0] % 4].f[k];
      } else {
         get(src, op->src_level, layer, (uint32_t)p[0], (uint32_t)p[1], (uint32_t)p[2], b);
         decode(src->h.format, b, v);
      }
      for (unsigned k = 0; k < 4; k++)
         out[k] += w * v[k];
   }
}

/* Checks a destination value against the reference: UNORM8 correctly
 * rounded (within 1e-3 of a tie), sRGB8 through the spec's OETF, floats
 * to `float_tol` relative (0: bit-exact), integers exactly (saturated). */
static bool matches(unsigned format, const uint8_t *got, const double want[4], double float_tol)
{
   for (unsigned c = 0; c < 4; c++) {
      double w = want[c];
      switch (format) {
      case PPU_TEX_FORMAT_R8G8B8A8_UNORM:
      case PPU_TEX_FORMAT_R8G8B8A8_SRGB: {
         double l = fmin(fmax(w, 0.0), 1.0);
         if (format == PPU_TEX_FORMAT_R8G8B8A8_SRGB && c < 3)
            l = l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
         if (fabs(got[c] - l * 255.0) > 0.5 + 1e-3)
            return false;
         break;
      }
      case PPU_TEX_FORMAT_R32G32B32A32_SFLOAT: {
         float g;
         memcpy(&g, got + 4 * c, 4);
         if (float_tol == 0.0 ? g != (float)w : fabs(g - w) > float_tol * fmax(1.0, fabs(w)))
            return false;
         break;
      }
      case PPU_TEX_FORMAT_R16G16B16A16_UINT: {
         uint16_t g;
         memcpy(&g, got + 2 * c, 2);
         if (g != (uint16_t)fmin(w, 65535.0))
            return false;
         break;
      }
      case PPU_TEX_FORMAT_R8G8B8A8_SINT:
         if ((int8_t)got[c] != (int8_t)w)
            return false;
         break;
      default:
         return false;
      }
   }
   return true;
}

/* Runs the blit and compares every destination texel of the box with the
 * reference, and a ring of texels around the box with their old bytes. */
static void check_blit(const char *name, const struct image *src, const struct image *dst,
                       struct blit_op op, double float_tol)
{
   op.src_header = src->header_va;
   op.dst_header = dst->header_va;
   if (!op.layer_count)
      op.layer_count = 1;
   uint32_t eb = ppu_tex_format_bytes(dst->h.format);
   uint32_t dw = level_extent(dst, op.dst_level, 0), dh = level_extent(dst, op.dst_level, 1),
            dd = level_extent(dst, op.dst_level, 2);
   uint32_t planes = dst->h.dim == PPU_TEX_DIM_3D ? 1 : op.layer_count;
   /* Old contents of every destination texel, to check outside the box. */
   size_t count = (size_t)planes * dd * dh * dw;
   uint8_t *old = malloc(count * eb);
   REQUIRE(old);
   for (uint32_t p = 0; p < planes; p++)
      for (uint32_t z = 0; z < dd; z++)
         for (uint32_t y = 0; y < dh; y++)
            for (uint32_t x = 0; x < dw; x++)
               get(dst, op.dst_level, op.dst_layer + p, x, y, z,
                   old + ((((size_t)p * dd + z) * dh + y) * dw + x) * eb);
   CHECK_MSG(run(&op), "%s: blit did not complete", name);
   int32_t lo[3], hi[3];
   for (unsigned a = 0; a < 3; a++) {
      lo[a] = op.dst[0][a] < op.dst[1][a] ? op.dst[0][a] : op.dst[1][a];
      hi[a] = op.dst[0][a] < op.dst[1][a] ? op.dst[1][a] : op.dst[0][a];
   }
   unsigned bad = 0;
   for (uint32_t p = 0; p < planes; p++)
      for (int32_t z = 0; z < (int32_t)dd; z++)
         for (int32_t y = 0; y < (int32_t)dh; y++)
            for (int32_t x = 0; x < (int32_t)dw; x++) {
               uint8_t got[16];
               uint32_t layer = dst->h.dim == PPU_TEX_DIM_3D ? 0 : op.dst_layer + p;
               get(dst, op.dst_level, layer, (uint32_t)x, (uint32_t)y, (uint32_t)z, got);
               bool inside =
                   x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2];
               if (!inside) {
                  const uint8_t *o = old + ((((size_t)p * dd + z) * dh + y) * dw + x) * eb;
                  if (memcmp(got, o, eb) != 0 && bad++ < 3)
                     CHECK_MSG(false, "%s: texel (%d, %d, %d) outside the box changed", name, x, y,
                               z);
                  continue;
               }
               double want[4];
               reference(src, &op, op.src_layer + p, x, y, z, want);
               if (!matches(dst->h.format, got, want, float_tol) && bad++ < 3)
                  CHECK_MSG(false,
                            "%s: plane %u texel (%d, %d, %d): got %02x %02x %02x %02x, want %g "
                            "%g %g %g",
                            name, p, x, y, z, got[0], got[1], got[2], got[3], want[0], want[1],
                            want[2], want[3]);
            }
   CHECK_MSG(bad == 0, "%s: %u texels wrong", name, bad);
   free(old);
}

#define BOX(x0, y0, z0, x1, y1, z1)                                                                \
   {                                                                                               \
      {x0, y0, z0},                                                                                \
      {                                                                                            \
         x1, y1, z1                                                                                \
      }                                                                                            \
   }

TEST_CASE(linear_2x_downscale_is_the_exact_box_average)
{
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image src =
       make_image(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D, 64, 48, 1, 2, 1);
   struct image dst =
       make_image(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D, 64, 48, 1, 2, 1);
   fill_random(&src, 0);
   /* Level 0 into level 1 (the mipmap-generation blit): bit-exact. */
   check_blit("rgba32f 64x48 -> 32x24", &src, &dst,
              (struct blit_op){.dst_level = 1,
                               .src = BOX(0, 0, 0, 64, 48, 1),
                               .dst = BOX(0, 0, 0, 32, 24, 1),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   /* The same on UNORM8: correctly rounded averages. */
   struct image s8 = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 38, 22, 1, 1, 1);
   struct image d8 = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 19, 11, 1, 1, 1);
   fill_random(&s8, 0);
   check_blit("rgba8 38x22 -> 19x11", &s8, &d8,
              (struct blit_op){.src = BOX(0, 0, 0, 38, 22, 1),
                               .dst = BOX(0, 0, 0, 19, 11, 1),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   /* Box filtering of a 3D level: 8 texels each. */
   struct image v = make_image(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_3D, 8, 6, 10, 2, 1);
   fill_random(&v, 0);
   check_blit("3d 8x6x10 -> 4x3x5", &v, &v,
              (struct blit_op){.dst_level = 1,
                               .src = BOX(0, 0, 0, 8, 6, 10),
                               .dst = BOX(0, 0, 0, 4, 3, 5),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   hwt_finish(&t);
}

TEST_CASE(nearest_upscale_mirror_and_sub_boxes_follow_the_spec_coordinates)
{
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image src = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 13, 9, 1, 1, 3);
   struct image dst = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 45, 31, 1, 1, 3);
   fill_random(&src, 0);
   check_blit("nearest 13x9 -> 40x29 at (3, 1)", &src, &dst,
              (struct blit_op){.src = BOX(0, 0, 0, 13, 9, 1), .dst = BOX(3, 1, 0, 43, 30, 1)}, 0.0);
   /* Mirrored in x by the source corners, in y by the destination's. */
   check_blit("mirror x and y", &src, &dst,
              (struct blit_op){.src = BOX(13, 0, 0, 0, 9, 1), .dst = BOX(0, 31, 0, 13, 22, 1)},
              0.0);
   /* Both reversed: no mirror; a sub-box of layers 1-2 into layers 0-1. */
   check_blit("both reversed, layers", &src, &dst,
              (struct blit_op){.src_layer = 1,
                               .layer_count = 2,
                               .src = BOX(11, 7, 0, 2, 1, 0 + 1),
                               .dst = BOX(30, 20, 0, 5, 4, 1)},
              0.0);
   /* Linear with a mirror and an odd scale: weights within float. */
   check_blit("linear mirror 13x9 -> 20x7", &src, &dst,
              (struct blit_op){.src = BOX(13, 9, 0, 0, 0, 1),
                               .dst = BOX(2, 3, 0, 22, 10, 1),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   hwt_finish(&t);
}

TEST_CASE(format_conversion_unorm_float_srgb_and_integers)
{
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image u8 = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 17, 11, 1, 1, 1);
   struct image f32 =
       make_image(PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D, 17, 11, 1, 1, 1);
   struct image srgb = make_image(PPU_TEX_FORMAT_R8G8B8A8_SRGB, PPU_TEX_DIM_2D, 17, 11, 1, 1, 1);
   fill_random(&u8, 0);
   const struct blit_op same = {.src = BOX(0, 0, 0, 17, 11, 1), .dst = BOX(0, 0, 0, 17, 11, 1)};
   check_blit("unorm8 -> f32", &u8, &f32, same, 0.0);
   /* Floats outside [0, 1] clamp; the rest round to nearest. */
   for (uint32_t y = 0; y < 11; y++)
      for (uint32_t x = 0; x < 17; x++) {
         float v[4];
         for (unsigned c = 0; c < 4; c++)
            v[c] = (float)(rng() % 20000) / 10000.0f - 0.4f;
         put(&f32, 0, 0, x, y, 0, v);
      }
   check_blit("f32 -> unorm8", &f32, &u8, same, 0.0);
   check_blit("f32 -> srgb8", &f32, &srgb, same, 0.0);
   check_blit("srgb8 -> f32 (linear values)", &srgb, &f32, same, 1e-6);
   struct blit_op lin = same;
   lin.filter = PPU_COPY_FILTER_LINEAR;
   lin.dst[1][0] = 9;
   lin.dst[1][1] = 5;
   check_blit("srgb8 linear downscale -> unorm8 (filtered in linear)", &srgb, &u8, lin, 0.0);

   /* Integers: UINT8 -> UINT16 keeps values, SINT8 scaled nearest. */
   struct image ui = make_image(PPU_TEX_FORMAT_R8G8B8A8_UINT, PPU_TEX_DIM_2D, 9, 7, 1, 1, 1);
   struct image u16 = make_image(PPU_TEX_FORMAT_R16G16B16A16_UINT, PPU_TEX_DIM_2D, 9, 7, 1, 1, 1);
   struct image si = make_image(PPU_TEX_FORMAT_R8G8B8A8_SINT, PPU_TEX_DIM_2D, 9, 7, 1, 1, 1);
   struct image si2 = make_image(PPU_TEX_FORMAT_R8G8B8A8_SINT, PPU_TEX_DIM_2D, 20, 20, 1, 1, 1);
   fill_random(&ui, 0);
   fill_random(&si, 0);
   check_blit("uint8 -> uint16", &ui, &u16,
              (struct blit_op){.src = BOX(0, 0, 0, 9, 7, 1), .dst = BOX(0, 0, 0, 9, 7, 1)}, 0.0);
   check_blit("sint8 upscale", &si, &si2,
              (struct blit_op){.src = BOX(0, 0, 0, 9, 7, 1), .dst = BOX(0, 0, 0, 20, 17, 1)}, 0.0);
   /* A BC1 source is decoded block by block (16x12 texels, 4x3 blocks). */
   struct image bc = make_image(PPU_TEX_FORMAT_BC1_RGBA_UNORM, PPU_TEX_DIM_2D, 16, 12, 1, 1, 1);
   struct image big = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 32, 24, 1, 1, 1);
   for (uint32_t y = 0; y < 3; y++)
      for (uint32_t x = 0; x < 4; x++) {
         uint8_t block[8];
         for (unsigned i = 0; i < 8; i++)
            block[i] = (uint8_t)rng();
         put(&bc, 0, 0, x, y, 0, block);
      }
   check_blit("bc1 -> rgba8 nearest 2x", &bc, &big,
              (struct blit_op){.src = BOX(0, 0, 0, 16, 12, 1), .dst = BOX(0, 0, 0, 32, 24, 1)},
              0.0);
   check_blit("bc1 -> rgba8 linear 2x", &bc, &big,
              (struct blit_op){.src = BOX(0, 0, 0, 16, 12, 1),
                               .dst = BOX(0, 0, 0, 32, 24, 1),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   hwt_finish(&t);
}

TEST_CASE(stencil_aspect_blit_keeps_depth_and_3d_2d_boxes_meet)
{
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image a = make_image(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_DIM_2D, 8, 8, 1, 1, 1);
   struct image b = make_image(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_DIM_2D, 8, 8, 1, 1, 1);
   for (uint32_t y = 0; y < 8; y++)
      for (uint32_t x = 0; x < 8; x++) {
         uint32_t va = (x + 8 * y) << 24 | 0x123456, vb = 0xff000000u | (x * 1000 + y);
         put(&a, 0, 0, x, y, 0, &va);
         put(&b, 0, 0, x, y, 0, &vb);
      }
   struct blit_op op = {.src_header = a.header_va,
                        .dst_header = b.header_va,
                        .layer_count = 1,
                        .aspect = PPU_COPY_ASPECT_STENCIL,
                        .src = BOX(8, 0, 0, 0, 8, 1), /* mirrored */
                        .dst = BOX(0, 0, 0, 8, 8, 1)};
   CHECK(run(&op));
   for (uint32_t y = 0; y < 8; y++)
      for (uint32_t x = 0; x < 8; x++) {
         uint32_t got;
         get(&b, 0, 0, x, y, 0, &got);
         CHECK_EQ_U64(got, ((7 - x) + 8 * y) << 24 | (x * 1000 + y));
      }
   /* Slice 3 of a 3D image into a 2D image, and a 2D image into slices
    * 1..4 of a 3D one (every slice samples the 2D image). */
   struct image v = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_3D, 6, 5, 8, 1, 1);
   struct image p = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 12, 10, 1, 1, 1);
   fill_random(&v, 0);
   check_blit("3d slice 3 -> 2d", &v, &p,
              (struct blit_op){.src = BOX(0, 0, 3, 6, 5, 4), .dst = BOX(0, 0, 0, 12, 10, 1)}, 0.0);
   check_blit("2d -> 3d slices 1..4", &p, &v,
              (struct blit_op){.src = BOX(0, 0, 0, 12, 10, 1),
                               .dst = BOX(0, 0, 1, 6, 5, 5),
                               .filter = PPU_COPY_FILTER_LINEAR},
              0.0);
   hwt_finish(&t);
}

static void expect_fault(const struct blit_op *op, const char *name, const struct image *dst)
{
   struct hwt_channel c;
   if (!hwt_channel_init(&c, &t, name))
      return;
   uint8_t before[64];
   hwt_read(&t.mem, t.pd, dst->h.address, before, sizeof(before));
   static struct hwt_pb pb;
   hwt_pb_reset(&pb);
   emit(&pb, op);
   hwt_submit(&c, &pb);
   struct ppu_fault f;
   bool faulted = hwt_wait_fault(&c, &f, 5000);
   CHECK_MSG(faulted, "%s: no fault", name);
   if (faulted)
      CHECK_MSG(f.kind == PPU_FAULT_BAD_METHOD_DATA && f.engine == PPU_ENGINE_COPY &&
                    f.method == PPU_COPY_LAUNCH,
                "%s: fault %s (%s)", name, ppu_fault_kind_name(f.kind), f.detail);
   uint8_t after[64];
   hwt_read(&t.mem, t.pd, dst->h.address, after, sizeof(after));
   CHECK_MSG(memcmp(before, after, sizeof(after)) == 0, "%s: destination written", name);
   hwt_channel_finish(&c);
}

TEST_CASE(bad_corners_formats_filters_and_layers_fault_before_writing)
{
   REQUIRE(hwt_init(&t, TEST_VRAM));
   struct image s = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 16, 16, 1, 2, 2);
   struct image d = make_image(PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 16, 16, 1, 2, 2);
   struct image ui = make_image(PPU_TEX_FORMAT_R8G8B8A8_UINT, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   struct image si = make_image(PPU_TEX_FORMAT_R8G8B8A8_SINT, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   struct image bc = make_image(PPU_TEX_FORMAT_BC1_RGB_UNORM, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   struct image ds = make_image(PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   struct image ds2 = make_image(PPU_TEX_FORMAT_D16_UNORM, PPU_TEX_DIM_2D, 16, 16, 1, 1, 1);
   fill_random(&s, 0);
   const struct blit_op good = {.src_header = s.header_va,
                                .dst_header = d.header_va,
                                .layer_count = 1,
                                .src = BOX(0, 0, 0, 16, 16, 1),
                                .dst = BOX(0, 0, 0, 16, 16, 1)};
   CHECK(run(&good));
   fill_random(&d, 0);
   struct blit_op op;
#define BAD(change, name, dst_img)                                                                 \
   do {                                                                                            \
      op = good;                                                                                   \
      change;                                                                                      \
      expect_fault(&op, name, &(dst_img));                                                         \
   } while (0)
   BAD(op.src[1][0] = 17, "source corner beyond the width", d);
   BAD(op.dst[0][1] = -1, "negative destination corner", d);
   BAD(op.src_level = 1, "corner beyond level 1's 8 texels", d);
   BAD(op.dst[1][2] = 2, "z corner 2 of a 2D image", d);
   BAD(op.src[0][2] = 1; op.src[1][2] = 0, "reversed z of a 2D image", d);
   BAD(op.filter = 2, "undefined filter", d);
   BAD(op.layer_count = 0, "no layers", d);
   BAD(op.dst_layer = 1; op.layer_count = 2, "layers beyond the view", d);
   BAD(op.src_level = 2, "level beyond image_levels", d);
   BAD(op.aspect = PPU_COPY_ASPECT_DEPTH, "aspect on a color format", d);
   BAD(op.dst_header = ui.header_va, "unorm -> uint", ui);
   BAD(op.src_header = ui.header_va; op.dst_header = si.header_va, "uint -> sint", si);
   BAD(op.src_header = ui.header_va; op.dst_header = ui.header_va;
       op.filter = PPU_COPY_FILTER_LINEAR, "linear on uint", ui);
   BAD(op.dst_header = bc.header_va, "into BC1", bc);
   BAD(op.src_header = ds.header_va; op.dst_header = ds2.header_va, "D32 -> D16", ds2);
   BAD(op.src_header = ds.header_va; op.dst_header = ds.header_va;
       op.filter = PPU_COPY_FILTER_LINEAR, "linear on depth", ds);
   BAD(op.src_header = s.header_va + 8, "misaligned header", d);
   struct ppu_texture_header h = s.h;
   h.format = 0;
   uint64_t bad_va = hwt_alloc_mapped(&t, PPU_PAGE_SIZE, true);
   hwt_write(&t.mem, t.pd, bad_va, &h, sizeof(h));
   BAD(op.src_header = bad_va, "invalid source format", d);
#undef BAD
   /* An empty destination box writes nothing and completes. */
   op = good;
   op.dst[1][0] = 0;
   CHECK(run(&op));
   hwt_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
