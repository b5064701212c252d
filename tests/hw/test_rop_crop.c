/* CROP: every blend factor (constants and the second source included) with
 * every blend op, on UNORM, SNORM, sRGB, packed and float targets, against
 * a double-precision reference written from Vulkan's "Blend Factors" and
 * "Blend Operations" tables (fixed-point targets clamp sources,
 * destination and constants; the factors made of them are not clamped
 * again, as in the conformance suite's reference); logic
 * ops on the encoded bits; write masks; integer targets; 4x writes and
 * resolves. */
#include <stdio.h>
#include <stdlib.h>

#include "raster_test_util.h"
#include "rop/rop_crop.h"
#include "test_harness.h"

struct fmt_case {
   enum ppu_tex_format format;
   char kind; /* 'u' UNORM, 's' SNORM, 'r' sRGB, 'f' float */
   unsigned bits[4];
};

static const struct fmt_case blend_formats[] = {
    {PPU_TEX_FORMAT_R8G8B8A8_UNORM, 'u', {8, 8, 8, 8}},
    {PPU_TEX_FORMAT_B8G8R8A8_UNORM, 'u', {8, 8, 8, 8}},
    {PPU_TEX_FORMAT_A2B10G10R10_UNORM, 'u', {10, 10, 10, 2}},
    {PPU_TEX_FORMAT_R8G8_UNORM, 'u', {8, 8, 0, 0}},
    {PPU_TEX_FORMAT_R8G8B8A8_SNORM, 's', {8, 8, 8, 8}},
    {PPU_TEX_FORMAT_R16G16B16A16_UNORM, 'u', {16, 16, 16, 16}},
    {PPU_TEX_FORMAT_R8G8B8A8_SRGB, 'r', {8, 8, 8, 8}},
    {PPU_TEX_FORMAT_R16G16B16A16_SFLOAT, 'f', {16, 16, 16, 16}},
    {PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 'f', {32, 32, 32, 32}},
};

/* Vulkan "Blend Factors": the factor for component c. */
static double ref_factor(unsigned f, unsigned c, const double s[4], const double s1[4],
                         const double d[4], const double k[4])
{
   const double table[19] = {
       0.0,      1.0,       s[c],     1 - s[c],  d[c],
       1 - d[c], s[3],      1 - s[3], d[3],      1 - d[3],
       k[c],     1 - k[c],  k[3],     1 - k[3],  c < 3 ? fmin(s[3], 1 - d[3]) : 1.0,
       s1[c],    1 - s1[c], s1[3],    1 - s1[3],
   };
   return table[f];
}

static double srgb_encode(double l)
{
   return l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

static double clampd(double v, double lo, double hi)
{
   return fmin(fmax(v, lo), hi);
}

TEST_CASE(every_blend_factor_and_op_matches_the_spec_reference)
{
   unsigned checked = 0;
   for (unsigned fi = 0; fi < sizeof(blend_formats) / sizeof(blend_formats[0]); fi++) {
      const struct fmt_case *fc = &blend_formats[fi];
      uint8_t mem[4 * 16];
      struct rop_surface rt;
      REQUIRE(rop_surface_init(&rt, mem, fc->format, PPU_TEX_LAYOUT_LINEAR, 0, 2 * 16, 2, 2, 0));
      double lo = fc->kind == 's' ? -1 : 0, hi = 1;
      bool fixed = fc->kind != 'f';
      for (unsigned op = 0; op < 5; op++) {
         for (unsigned sf = 0; sf < 19; sf++) {
            for (unsigned df = 0; df < 19; df++) {
               struct rop_blend_state b;
               memset(&b, 0, sizeof(b));
               struct rop_blend_target *t = &b.target[0];
               t->enable = true;
               t->src_color = (uint8_t)sf, t->dst_color = (uint8_t)df, t->color_op = (uint8_t)op;
               /* Alpha: the same factors where they mean something there. */
               t->src_alpha = (uint8_t)((sf + df) % 19),
               t->dst_alpha = (uint8_t)((sf * 7 + df) % 19);
               t->alpha_op = (uint8_t)((op + sf) % 5);
               t->write_mask = 0xf;
               double range = fixed ? 1.3 : 2.0;
               for (unsigned c = 0; c < 4; c++)
                  b.constant[c] = (float)rt_uniform(-range, range);
               struct ppu_texel src[4], src1[4], old[4];
               for (unsigned p = 0; p < 4; p++) {
                  for (unsigned c = 0; c < 4; c++) {
                     src[p].f[c] = (float)rt_uniform(fixed ? lo - 0.2 : -2, fixed ? 1.2 : 2);
                     src1[p].f[c] = (float)rt_uniform(fixed ? lo - 0.2 : -2, fixed ? 1.2 : 2);
                     old[p].f[c] = (float)rt_uniform(fixed ? lo : -2, fixed ? 1 : 2);
                  }
                  ppu_texel_encode(fc->format, &old[p], false,
                                   rop_surface_sample(&rt, p & 1, p >> 1, 0));
                  ppu_texel_decode(fc->format, rop_surface_sample(&rt, p & 1, p >> 1, 0), false,
                                   &old[p]);
               }
               rop_crop_quad(&b, 0, &rt, 0, 0, 0x1111, src, src1);
               for (unsigned p = 0; p < 4; p++) {
                  double s[4], s1[4], d[4], k[4];
                  for (unsigned c = 0; c < 4; c++) {
                     s[c] = src[p].f[c], s1[c] = src1[p].f[c], d[c] = old[p].f[c];
                     k[c] = b.constant[c];
                     if (fixed) {
                        s[c] = clampd(s[c], lo, hi), s1[c] = clampd(s1[c], lo, hi);
                        d[c] = clampd(d[c], lo, hi), k[c] = clampd(k[c], lo, hi);
                     }
                  }
                  struct ppu_texel got;
                  const uint8_t *texel = rop_surface_sample(&rt, p & 1, p >> 1, 0);
                  ppu_texel_decode(fc->format, texel, false, &got);
                  for (unsigned c = 0; c < 4; c++) {
                     if (!fc->bits[c])
                        continue;
                     unsigned o = c < 3 ? op : t->alpha_op;
                     /* Factors of the clamped values, not clamped again:
                      * on SNORM 1 - s reaches 2, as the conformance
                      * suite's reference blender has it. */
                     double fs = ref_factor(c < 3 ? sf : t->src_alpha, c, s, s1, d, k);
                     double fd = ref_factor(c < 3 ? df : t->dst_alpha, c, s, s1, d, k);
                     double r, scale = fabs(s[c] * fs) + fabs(d[c] * fd);
                     switch (o) {
                     case 0:
                        r = s[c] * fs + d[c] * fd;
                        break;
                     case 1:
                        r = s[c] * fs - d[c] * fd;
                        break;
                     case 2:
                        r = d[c] * fd - s[c] * fs;
                        break;
                     case 3:
                        r = fmin(s[c], d[c]);
                        break;
                     default:
                        r = fmax(s[c], d[c]);
                        break;
                     }
                     bool ok;
                     if (fc->kind == 'r' && c < 3) {
                        /* Compare in the encoded domain: 8-bit codes. */
                        double want = srgb_encode(clampd(r, 0, 1)) * 255.0;
                        ok = fabs(texel[c] - want) <= 0.5 + 1e-3;
                     } else if (fixed) {
                        unsigned n = fc->bits[c];
                        double code =
                            fc->kind == 's' ? ldexp(1, (int)n - 1) - 1 : ldexp(1, (int)n) - 1;
                        ok = fabs(got.f[c] - clampd(r, lo, hi)) <= 0.5 / code + 1e-5;
                     } else if (fc->bits[c] == 16) {
                        ok = fabs(got.f[c] - r) <=
                             fabs(r) * ldexp(1, -11) + ldexp(1, -24) + scale * 1e-6;
                     } else {
                        ok = fabs(got.f[c] - r) <= scale * 2e-6 + 1e-30;
                     }
                     CHECK_MSG(ok, "format %u op %u factors %u/%u comp %u: %.7g vs %.7g",
                               fc->format, o, c < 3 ? sf : t->src_alpha, c < 3 ? df : t->dst_alpha,
                               c, got.f[c], r);
                     checked++;
                  }
               }
            }
         }
      }
   }
   CHECK(checked > 100000);
}

static uint32_t ref_logic(unsigned op, uint32_t s, uint32_t d)
{
   switch (op) {
   case 0:
      return 0;
   case 1:
      return s & d;
   case 2:
      return s & ~d;
   case 3:
      return s;
   case 4:
      return ~s & d;
   case 5:
      return d;
   case 6:
      return s ^ d;
   case 7:
      return s | d;
   case 8:
      return ~(s | d);
   case 9:
      return ~(s ^ d);
   case 10:
      return ~d;
   case 11:
      return s | ~d;
   case 12:
      return ~s;
   case 13:
      return ~s | d;
   case 14:
      return ~(s & d);
   default:
      return ~0u;
   }
}

TEST_CASE(logic_ops_work_on_the_encoded_bits_of_integer_and_normalized_targets)
{
   const enum ppu_tex_format formats[] = {
       PPU_TEX_FORMAT_R8G8B8A8_UINT, PPU_TEX_FORMAT_R8G8B8A8_UNORM,
       PPU_TEX_FORMAT_A2B10G10R10_UNORM, PPU_TEX_FORMAT_R32_SINT};
   for (unsigned fi = 0; fi < 4; fi++) {
      enum ppu_tex_format f = formats[fi];
      bool integer = fi == 0 || fi == 3;
      uint32_t mem[4];
      struct rop_surface rt;
      REQUIRE(rop_surface_init(&rt, (uint8_t *)mem, f, PPU_TEX_LAYOUT_LINEAR, 0, 8, 2, 2, 0));
      for (unsigned op = 0; op < 16; op++) {
         struct rop_blend_state b;
         memset(&b, 0, sizeof(b));
         b.logic_op_enable = true;
         b.logic_op = (uint8_t)op;
         b.target[0].enable = true; /* ignored: the logic op turns blending off */
         b.target[0].src_color = PPU_GFX_BLEND_ONE, b.target[0].dst_color = PPU_GFX_BLEND_ONE;
         b.target[0].write_mask = 0xf;
         struct ppu_texel src[4];
         uint32_t old[4], sbits[4];
         for (unsigned p = 0; p < 4; p++) {
            old[p] = mem[p] = rt_rng() ^ (rt_rng() << 16);
            for (unsigned c = 0; c < 4; c++) {
               if (integer)
                  src[p].u[c] = rt_rng() % 300;
               else
                  src[p].f[c] = (float)rt_uniform(0, 1);
            }
            sbits[p] = 0;
            ppu_texel_encode(f, &src[p], false, &sbits[p]);
         }
         rop_crop_quad(&b, 0, &rt, 0, 0, 0x1111, src, NULL);
         for (unsigned p = 0; p < 4; p++)
            CHECK_MSG(mem[p] == ref_logic(op, sbits[p], old[p]), "format %u op %u", f, op);
      }
   }
   /* Float and sRGB targets: no logic op, no blending: the source. */
   const enum ppu_tex_format plain[] = {PPU_TEX_FORMAT_R32G32B32A32_SFLOAT,
                                        PPU_TEX_FORMAT_R8G8B8A8_SRGB};
   for (unsigned fi = 0; fi < 2; fi++) {
      uint8_t mem[64] = {0}, want[16] = {0};
      struct rop_surface rt;
      REQUIRE(rop_surface_init(&rt, mem, plain[fi], PPU_TEX_LAYOUT_LINEAR, 0, 32, 2, 2, 0));
      struct rop_blend_state b;
      memset(&b, 0, sizeof(b));
      b.logic_op_enable = true;
      b.logic_op = PPU_GFX_LOGIC_XOR;
      b.target[0].enable = true;
      b.target[0].src_color = b.target[0].dst_color = PPU_GFX_BLEND_ONE;
      b.target[0].write_mask = 0xf;
      struct ppu_texel src[4] = {{{{0.25f, 0.5f, 0.75f, 1.0f}}}};
      src[1] = src[2] = src[3] = src[0];
      memset(mem, 0x5a, sizeof(mem));
      rop_crop_quad(&b, 0, &rt, 0, 0, 0x1, src, NULL);
      ppu_texel_encode(plain[fi], &src[0], false, want);
      CHECK(memcmp(mem, want, rt.bytes) == 0);
   }
}

TEST_CASE(write_masks_keep_the_masked_components_and_integer_targets_never_blend)
{
   const enum ppu_tex_format formats[] = {
       PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_FORMAT_A2B10G10R10_UNORM,
       PPU_TEX_FORMAT_R5G6B5_UNORM,   PPU_TEX_FORMAT_R16G16B16A16_SFLOAT,
       PPU_TEX_FORMAT_R32G32_UINT,    PPU_TEX_FORMAT_B10G11R11_UFLOAT,
       PPU_TEX_FORMAT_R16G16_SINT,    PPU_TEX_FORMAT_B8G8R8A8_SRGB};
   for (unsigned fi = 0; fi < 8; fi++) {
      enum ppu_tex_format f = formats[fi];
      bool integer = ppu_texel_format_class(f) != PPU_TEXEL_CLASS_FLOAT;
      uint8_t mem[4 * 16];
      struct rop_surface rt;
      REQUIRE(rop_surface_init(&rt, mem, f, PPU_TEX_LAYOUT_LINEAR, 0, 32, 2, 2, 0));
      for (unsigned mask = 0; mask < 16; mask++) {
         for (unsigned iter = 0; iter < 20; iter++) {
            struct rop_blend_state b;
            memset(&b, 0, sizeof(b));
            b.target[0].write_mask = (uint8_t)mask;
            /* Blend ONE/ONE: integer targets must ignore it. */
            b.target[0].enable = integer;
            b.target[0].src_color = b.target[0].src_alpha = PPU_GFX_BLEND_ONE;
            b.target[0].dst_color = b.target[0].dst_alpha = PPU_GFX_BLEND_ONE;
            struct ppu_texel src[4], old[4], enc_src, got;
            uint8_t before[4 * 16];
            for (unsigned p = 0; p < 4; p++) {
               for (unsigned c = 0; c < 4; c++) {
                  old[p].u[c] = integer ? rt_rng() % 100 : 0;
                  if (!integer)
                     old[p].f[c] = (float)rt_uniform(0, 1);
                  src[p].u[c] = integer ? rt_rng() % 100 : 0;
                  if (!integer)
                     src[p].f[c] = (float)rt_uniform(0, 1);
               }
               memset(rop_surface_sample(&rt, p & 1, p >> 1, 0), 0, rt.bytes);
               ppu_texel_encode(f, &old[p], false, rop_surface_sample(&rt, p & 1, p >> 1, 0));
            }
            memcpy(before, mem, sizeof(mem));
            rop_crop_quad(&b, 0, &rt, 0, 0, 0x1111, src, NULL);
            if (mask == 0)
               CHECK(memcmp(before, mem, sizeof(mem)) == 0);
            for (unsigned p = 0; p < 4; p++) {
               uint8_t tmp[16] = {0};
               ppu_texel_encode(f, &src[p], false, tmp);
               ppu_texel_decode(f, tmp, false, &enc_src);
               ppu_texel_decode(f, rop_surface_sample(&rt, p & 1, p >> 1, 0), false, &got);
               struct ppu_texel was;
               ppu_texel_decode(f, before + (rop_surface_sample(&rt, p & 1, p >> 1, 0) - mem),
                                false, &was);
               for (unsigned c = 0; c < 4; c++) {
                  uint32_t want = (mask >> c) & 1u ? enc_src.u[c] : was.u[c];
                  CHECK_MSG(got.u[c] == want, "format %u mask %x comp %u", f, mask, c);
               }
            }
         }
      }
   }
}

TEST_CASE(four_sample_writes_touch_covered_samples_and_resolve_follows_each_mode)
{
   enum ppu_tex_format f = PPU_TEX_FORMAT_R8G8B8A8_UNORM;
   uint32_t ss[4 * 4] = {0};
   struct rop_surface rt, out;
   /* A block-linear 4x target (8x8 samples): two GOBs hold it. */
   uint8_t *gob = calloc(PPU_GOB_BYTES * 2, 1);
   REQUIRE(rop_surface_init(&rt, gob, f, PPU_TEX_LAYOUT_BLOCK_LINEAR, 0, 0, 4, 4, 2));
   REQUIRE(rop_surface_init(&out, (uint8_t *)ss, f, PPU_TEX_LAYOUT_LINEAR, 0, 16, 4, 4, 0));
   struct rop_blend_state b;
   memset(&b, 0, sizeof(b));
   b.target[0].write_mask = 0xf;
   struct ppu_texel red = {{{1, 0, 0, 1}}}, src[4];
   src[0] = src[1] = src[2] = src[3] = red;
   for (int32_t qy = 0; qy < 4; qy += 2) {
      for (int32_t qx = 0; qx < 4; qx += 2) {
         uint16_t cov = (uint16_t)(rt_rng() & 0xffff);
         rop_crop_quad(&b, 0, &rt, qx, qy, cov, src, NULL);
         for (unsigned bit = 0; bit < 16; bit++) {
            unsigned p = bit / 4, s = bit % 4;
            uint32_t v;
            memcpy(&v, rop_surface_sample(&rt, qx + (p & 1), qy + (p >> 1), s), 4);
            CHECK(v == ((cov >> bit) & 1u ? 0xff0000ffu : 0u));
         }
      }
   }
   /* Random samples, then every resolve mode against a reference. */
   for (uint32_t y = 0; y < 4; y++) {
      for (uint32_t x = 0; x < 4; x++) {
         for (unsigned s = 0; s < 4; s++) {
            uint32_t v = rt_rng() ^ (rt_rng() << 16);
            memcpy(rop_surface_sample(&rt, x, y, s), &v, 4);
         }
      }
   }
   for (unsigned mode = 0; mode < 4; mode++) {
      REQUIRE(rop_resolve(&rt, &out, 0, 0, 4, 4, (enum rop_resolve_mode)mode, false));
      for (uint32_t y = 0; y < 4; y++) {
         for (uint32_t x = 0; x < 4; x++) {
            const uint8_t *r = (const uint8_t *)&ss[y * 4 + x];
            for (unsigned c = 0; c < 4; c++) {
               unsigned sum = 0, mn = 255, mx = 0;
               for (unsigned s = 0; s < 4; s++) {
                  unsigned v = rop_surface_sample(&rt, x, y, s)[c];
                  sum += v, mn = v < mn ? v : mn, mx = v > mx ? v : mx;
               }
               unsigned want = mode == 1   ? rop_surface_sample(&rt, x, y, 0)[c]
                               : mode == 2 ? mn
                                           : mx;
               /* AVERAGE: the nearest code to the mean (either one on an
                * exact tie: the mean of the decoded floats is within
                * rounding of it). */
               bool ok = mode == 0 ? fabs(r[c] - sum / 4.0) <= 0.5 + 1e-6 : r[c] == want;
               CHECK_MSG(ok, "mode %u pixel %u,%u comp %u: %u vs %u", mode, x, y, c, r[c], want);
            }
         }
      }
   }
   /* Stencil: MIN of the stencil aspect keeps the destination's depth. */
   uint32_t dms[16], dss[1] = {0x00abcdefu};
   struct rop_surface zs, zd;
   REQUIRE(rop_surface_init(&zs, (uint8_t *)dms, PPU_TEX_FORMAT_D24_UNORM_S8_UINT,
                            PPU_TEX_LAYOUT_LINEAR, 0, 8, 1, 1, 2));
   REQUIRE(rop_surface_init(&zd, (uint8_t *)dss, PPU_TEX_FORMAT_D24_UNORM_S8_UINT,
                            PPU_TEX_LAYOUT_LINEAR, 0, 4, 1, 1, 0));
   const uint8_t st[4] = {9, 3, 200, 7};
   for (unsigned s = 0; s < 4; s++) {
      uint32_t v = (uint32_t)st[s] << 24 | s;
      memcpy(rop_surface_sample(&zs, 0, 0, s), &v, 4);
   }
   REQUIRE(rop_resolve(&zs, &zd, 0, 0, 1, 1, ROP_RESOLVE_MIN, true));
   CHECK(dss[0] == (3u << 24 | 0xabcdefu));
   CHECK(!rop_resolve(&zs, &zd, 0, 0, 1, 1, ROP_RESOLVE_AVERAGE, true));
   free(gob);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
