/* ZROP: every depth compare op on float and UNORM depth (fragment depth
 * rounded to the format's code before the compare), every stencil op on
 * each path (stencil fail, depth fail, pass) with masks, reference and both
 * faces, depth bounds, writes that keep the other aspect, 4x per-sample
 * tests and sample counts; the hi-Z and ordering permissions. References
 * are computed here from the spec's formulas on integer codes. */
#include <stdio.h>
#include <stdlib.h>

#include "ppu/graphics.h"
#include "raster_test_util.h"
#include "rop/rop_order.h"
#include "rop/rop_zrop.h"
#include "test_harness.h"

static bool ref_compare(unsigned op, double a, double b)
{
   switch (op) {
   case 0:
      return false;
   case 1:
      return a < b;
   case 2:
      return a == b;
   case 3:
      return a <= b;
   case 4:
      return a > b;
   case 5:
      return a != b;
   case 6:
      return a >= b;
   default:
      return true;
   }
}

/* Fragment depth as a code of an n-bit UNORM: clamp, scale, round. */
static double unorm_code(double z, unsigned bits)
{
   double m = ldexp(1.0, (int)bits) - 1.0;
   return floor(fmin(fmax(z, 0.0), 1.0) * m + 0.5);
}

static uint32_t read_bits(const uint8_t *p, unsigned bytes)
{
   uint32_t v = 0;
   memcpy(&v, p, bytes < 4 ? bytes : 4);
   return v;
}

TEST_CASE(every_depth_compare_op_matches_the_reference_on_float_and_unorm_depth)
{
   const enum ppu_tex_format formats[] = {PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_FORMAT_D16_UNORM,
                                          PPU_TEX_FORMAT_X8_D24_UNORM,
                                          PPU_TEX_FORMAT_D24_UNORM_S8_UINT};
   for (unsigned fi = 0; fi < 4; fi++) {
      enum ppu_tex_format f = formats[fi];
      unsigned bits = fi == 1 ? 16 : fi >= 2 ? 24 : 0;
      uint8_t mem[4 * 4 * 4] = {0};
      struct rop_surface ds;
      REQUIRE(rop_surface_init(&ds, mem, f, PPU_TEX_LAYOUT_LINEAR, 0, 16, 4, 4, 0));
      for (unsigned op = 0; op < 8; op++) {
         for (unsigned iter = 0; iter < 200; iter++) {
            /* Stored values as raw codes; fragments near them, often equal
             * after rounding. */
            uint32_t stored[4];
            float frag[16] = {0};
            for (unsigned p = 0; p < 4; p++) {
               uint8_t *t = rop_surface_sample(&ds, p & 1, p >> 1, 0);
               if (bits) {
                  stored[p] = rt_rng() & ((1u << bits) - 1u);
                  uint32_t w = read_bits(t, 4) & ~((1u << bits) - 1u);
                  w |= stored[p];
                  memcpy(t, &w, bits == 16 ? 2 : 4);
                  double m = ldexp(1.0, (int)bits) - 1.0;
                  frag[p * 4] = (float)((stored[p] + rt_uniform(-1.0, 1.0)) / m);
                  if (iter % 17 == 0)
                     frag[p * 4] = (float)rt_uniform(-0.5, 1.5); /* clamped */
               } else {
                  float z = (float)rt_uniform(0, 1);
                  memcpy(t, &z, 4);
                  memcpy(&stored[p], &z, 4);
                  frag[p * 4] = rt_rng() % 3 ? z : (float)rt_uniform(0, 1);
               }
            }
            struct rop_zs_state z = {
                .depth_test = true, .depth_write = true, .depth_op = (uint8_t)op};
            uint64_t passed = 0;
            uint16_t cov = rop_zrop_quad(&z, &ds, 0, 0, 0x1111, frag, true, &passed);
            unsigned expected_passed = 0;
            for (unsigned p = 0; p < 4; p++) {
               double a, b;
               if (bits) {
                  a = unorm_code(frag[p * 4], bits);
                  b = stored[p];
               } else {
                  a = frag[p * 4];
                  float sf;
                  memcpy(&sf, &stored[p], 4);
                  b = sf;
               }
               bool pass = ref_compare(op, a, b);
               expected_passed += pass;
               CHECK_MSG(((cov >> (p * 4)) & 1u) == pass, "format %u op %u pixel %u", f, op, p);
               uint32_t now = read_bits(rop_surface_sample(&ds, p & 1, p >> 1, 0), 4);
               if (bits)
                  now &= (1u << bits) - 1u;
               uint32_t want = stored[p];
               if (pass) {
                  if (bits) {
                     want = (uint32_t)a;
                  } else {
                     memcpy(&want, &frag[p * 4], 4);
                  }
               }
               CHECK_MSG(now == want, "format %u op %u pixel %u: stored 0x%x, want 0x%x", f, op, p,
                         now, want);
            }
            CHECK(passed == expected_passed);
         }
      }
   }
}

static uint8_t ref_stencil(unsigned op, uint8_t s, uint8_t ref)
{
   switch (op) {
   case 0:
      return s;
   case 1:
      return 0;
   case 2:
      return ref;
   case 3:
      return s < 255 ? s + 1 : 255;
   case 4:
      return s > 0 ? s - 1 : 0;
   case 5:
      return (uint8_t)(255 - s);
   case 6:
      return (uint8_t)((s + 1) % 256);
   default:
      return (uint8_t)((s + 255) % 256);
   }
}

TEST_CASE(every_stencil_op_on_every_path_with_masks_and_both_faces)
{
   uint8_t mem[4 * 4 * 4] = {0};
   struct rop_surface ds;
   REQUIRE(rop_surface_init(&ds, mem, PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                            16, 4, 4, 0));
   for (unsigned iter = 0; iter < 3000; iter++) {
      struct rop_zs_state z = {0};
      z.depth_test = rt_rng() & 1;
      z.depth_write = true;
      z.depth_op = (uint8_t)(rt_rng() % 8);
      z.stencil_test = true;
      struct rop_stencil_face *faces[2] = {&z.front, &z.back};
      for (unsigned k = 0; k < 2; k++) {
         faces[k]->fail_op = (uint8_t)(rt_rng() % 8);
         faces[k]->pass_op = (uint8_t)(rt_rng() % 8);
         faces[k]->depth_fail_op = (uint8_t)(rt_rng() % 8);
         faces[k]->compare_op = (uint8_t)(rt_rng() % 8);
         faces[k]->compare_mask = (uint8_t)(rt_rng() % 4 ? 0xff : rt_rng());
         faces[k]->write_mask = (uint8_t)(rt_rng() % 4 ? 0xff : rt_rng());
         faces[k]->reference = (uint8_t)(rt_rng() % 3 ? rt_rng() % 4 : rt_rng());
      }
      bool front = rt_rng() & 1;
      const struct rop_stencil_face *f = front ? &z.front : &z.back;
      uint32_t words[4];
      float frag[16] = {0};
      for (unsigned p = 0; p < 4; p++) {
         uint8_t sv = (uint8_t)(rt_rng() % 3 ? rt_rng() % 4 : rt_rng());
         if (rt_rng() % 8 == 0)
            sv = rt_rng() & 1 ? 0 : 255;
         uint32_t d = rt_rng() & 0xffffffu;
         words[p] = d | (uint32_t)sv << 24;
         memcpy(rop_surface_sample(&ds, p & 1, p >> 1, 0), &words[p], 4);
         frag[p * 4] = (float)((d + rt_uniform(-2, 2)) / 16777215.0);
      }
      uint64_t passed = 0;
      uint16_t cov = rop_zrop_quad(&z, &ds, 0, 0, 0x1111, frag, front, &passed);
      for (unsigned p = 0; p < 4; p++) {
         uint8_t sv = (uint8_t)(words[p] >> 24);
         uint32_t d = words[p] & 0xffffffu;
         bool s_pass =
             ref_compare(f->compare_op, f->reference & f->compare_mask, sv & f->compare_mask);
         bool d_pass = !z.depth_test || ref_compare(z.depth_op, unorm_code(frag[p * 4], 24), d);
         unsigned op = !s_pass ? f->fail_op : d_pass ? f->pass_op : f->depth_fail_op;
         uint8_t nv = ref_stencil(op, sv, f->reference);
         nv = (uint8_t)((sv & ~f->write_mask) | (nv & f->write_mask));
         uint32_t want_d =
             s_pass && d_pass && z.depth_test ? (uint32_t)unorm_code(frag[p * 4], 24) : d;
         uint32_t now;
         memcpy(&now, rop_surface_sample(&ds, p & 1, p >> 1, 0), 4);
         CHECK_MSG((uint8_t)(now >> 24) == nv, "iter %u pixel %u: stencil %u, want %u (op %u)",
                   iter, p, now >> 24, nv, op);
         CHECK_MSG((now & 0xffffffu) == want_d, "iter %u pixel %u: depth", iter, p);
         CHECK(((cov >> (p * 4)) & 1u) == (s_pass && d_pass));
      }
   }
}

TEST_CASE(depth_bounds_test_uses_the_stored_depth)
{
   float mem[4] = {0.1f, 0.4f, 0.6f, 0.9f};
   struct rop_surface ds;
   REQUIRE(rop_surface_init(&ds, (uint8_t *)mem, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR,
                            0, 8, 2, 2, 0));
   struct rop_zs_state z = {.depth_test = true,
                            .depth_op = PPU_GFX_COMPARE_ALWAYS,
                            .depth_bounds = true,
                            .bounds_min = 0.3f,
                            .bounds_max = 0.6f};
   float frag[16] = {0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 0.5f};
   uint64_t passed = 0;
   CHECK(rop_zrop_quad(&z, &ds, 0, 0, 0x1111, frag, true, &passed) == 0x0110);
   CHECK(passed == 2);
}

TEST_CASE(four_samples_are_tested_and_written_each_on_its_own)
{
   float mem[4 * 4 * 4];
   for (unsigned i = 0; i < 64; i++)
      mem[i] = 0.5f;
   struct rop_surface ds;
   REQUIRE(rop_surface_init(&ds, (uint8_t *)mem, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR,
                            0, 16, 2, 2, 2));
   struct rop_zs_state z = {
       .depth_test = true, .depth_write = true, .depth_op = PPU_GFX_COMPARE_LESS};
   float frag[16];
   for (unsigned b = 0; b < 16; b++)
      frag[b] = b % 3 == 0 ? 0.25f : 0.75f;
   uint16_t coverage = 0xbeef;
   uint64_t passed = 0;
   uint16_t out = rop_zrop_quad(&z, &ds, 0, 0, coverage, frag, true, &passed);
   uint16_t want = 0;
   for (unsigned b = 0; b < 16; b++)
      want |= (uint16_t)(((coverage >> b) & 1u) && frag[b] < 0.5f) << b;
   CHECK(out == want);
   CHECK(passed == (uint64_t)__builtin_popcount(want));
   for (unsigned b = 0; b < 16; b++) {
      unsigned p = b / 4, s = b % 4;
      float v;
      memcpy(&v, rop_surface_sample(&ds, p & 1, p >> 1, s), 4);
      CHECK(v == ((want >> b) & 1u ? 0.25f : 0.5f));
   }
   /* Sample s of pixel (x, y) is texel (2x + (s & 1), 2y + (s >> 1)). */
   CHECK(rop_surface_sample(&ds, 1, 1, 3) == (uint8_t *)&mem[3 * 4 + 3]);
}

TEST_CASE(hiz_culling_and_relaxed_order_are_allowed_only_where_nothing_changes)
{
   struct rop_zs_state z = {
       .depth_test = true, .depth_write = true, .depth_op = PPU_GFX_COMPARE_LESS};
   CHECK(rop_zrop_hiz_cull_allowed(&z, 0));
   CHECK(!rop_zrop_hiz_cull_allowed(&z, PPU_GFX_PROGRAM_WRITES_DEPTH));
   CHECK(!rop_zrop_hiz_cull_allowed(&z, PPU_GFX_PROGRAM_SIDE_EFFECTS));
   z.stencil_test = true;
   z.front.write_mask = z.back.write_mask = 0xff;
   z.back.depth_fail_op = PPU_GFX_STENCIL_INCREMENT_WRAP;
   CHECK(!rop_zrop_hiz_cull_allowed(&z, 0));
   z.back.write_mask = 0;
   CHECK(rop_zrop_hiz_cull_allowed(&z, 0));

   struct rop_blend_state b = {0};
   struct rop_zs_state d = {
       .depth_test = true, .depth_write = true, .depth_op = PPU_GFX_COMPARE_LESS};
   CHECK(rop_order_is_relaxable(&d, &b, 0x1, false)); /* depth-only: min is commutative */
   CHECK(!rop_order_is_relaxable(&d, &b, 0x1, true)); /* but the count is not */
   b.target[0].write_mask = 0xf;
   CHECK(!rop_order_is_relaxable(&d, &b, 0x1, false));
   CHECK(rop_order_is_relaxable(&d, &b, 0x2, false)); /* target 0 not written */
   d.depth_op = PPU_GFX_COMPARE_ALWAYS;
   CHECK(!rop_order_is_relaxable(&d, &b, 0x0, false));
   d.depth_write = false;
   CHECK(rop_order_is_relaxable(&d, &b, 0x0, true));
   d.stencil_test = true;
   d.front.write_mask = 1;
   CHECK(!rop_order_is_relaxable(&d, &b, 0x0, false));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
