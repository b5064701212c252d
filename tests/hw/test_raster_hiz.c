/* Hierarchical Z never culls a tile in which any sample would pass: random
 * scenes of triangles (random depths, bias, clamp) are drawn through
 * setup, coarse raster, fine raster and ZROP on float and UNORM depth, 1x
 * and 4x, for every compare op. Every tile hi-Z culls is still sent to
 * ZROP, which must pass none of its samples. The per-tile ranges are kept
 * exact (ZROP reads the tile back) or widened with what was written. */
#include <stdio.h>
#include <stdlib.h>

#include "raster/raster_hiz.h"
#include "raster_test_util.h"
#include "rop/rop_zrop.h"
#include "test_harness.h"

#define W 64
#define H 64

struct scene {
   struct raster_hiz hiz;
   struct raster_hiz_format fmt;
   struct rop_surface ds;
   struct rop_zs_state z;
   const struct raster_triangle *t;
   bool exact;
   unsigned culled, culled_wrongly, tested;
};

static bool visit(void *p, int32_t tx, int32_t ty, enum raster_tile_class c)
{
   struct scene *s = p;
   float lo, hi;
   raster_hiz_triangle_range(s->t, tx, ty, &lo, &hi);
   bool may = raster_hiz_may_pass(&s->hiz, &s->fmt, tx, ty, s->z.depth_op, lo, hi);
   struct raster_quad q[RASTER_QUADS_PER_TILE];
   unsigned n = raster_fine_tile(s->t, tx, ty, s->ds.samples_log2, 0xf, c == RASTER_TILE_FULL, q);
   float wmin = INFINITY, wmax = -INFINITY;
   for (unsigned i = 0; i < n; i++) {
      /* The tile's samples must lie in the range hi-Z used. */
      for (unsigned b = 0; b < 16; b++) {
         if ((q[i].coverage >> b) & 1u)
            CHECK_MSG(q[i].depth[b] >= lo && q[i].depth[b] <= hi, "depth %.9g outside [%.9g, %.9g]",
                      q[i].depth[b], lo, hi);
      }
      uint64_t passed = 0;
      uint16_t out = rop_zrop_quad(&s->z, &s->ds, q[i].x, q[i].y, q[i].coverage, q[i].depth,
                                   s->t->front_facing, &passed);
      if (!may && out)
         s->culled_wrongly++;
      for (unsigned b = 0; b < 16; b++) {
         if ((out >> b) & 1u) {
            wmin = fminf(wmin, q[i].depth[b]);
            wmax = fmaxf(wmax, q[i].depth[b]);
         }
      }
   }
   s->tested++;
   s->culled += !may;
   if (s->exact) {
      float a, b;
      if (rop_zrop_tile_range(&s->ds, tx, ty, &a, &b))
         raster_hiz_set(&s->hiz, tx, ty, a, b);
   } else if (wmin <= wmax) {
      /* Widen with the values as the format stores them. */
      if (s->fmt.unorm) {
         wmin = fmaxf(wmin, 0.0f) - s->fmt.quantum;
         wmax = fminf(wmax, 1.0f) + s->fmt.quantum;
      }
      raster_hiz_widen(&s->hiz, tx, ty, wmin, wmax);
   }
   return true;
}

TEST_CASE(hiz_never_culls_a_tile_with_a_passing_sample)
{
   unsigned total_culled = 0;
   for (unsigned scene_i = 0; scene_i < 64; scene_i++) {
      struct scene s;
      memset(&s, 0, sizeof(s));
      bool unorm = scene_i & 1;
      unsigned samples_log2 = scene_i & 2 ? 2 : 0;
      s.exact = scene_i & 4;
      unsigned op = (scene_i >> 3) % 8;
      enum ppu_tex_format f = unorm ? PPU_TEX_FORMAT_D16_UNORM : PPU_TEX_FORMAT_D32_SFLOAT;
      uint32_t scale = samples_log2 ? 2 : 1;
      uint32_t bytes = ppu_tex_format_bytes(f);
      uint8_t *mem = calloc((size_t)W * H * scale * scale, bytes);
      REQUIRE(rop_surface_init(&s.ds, mem, f, PPU_TEX_LAYOUT_LINEAR, 0, W * scale * bytes, W, H,
                               samples_log2));
      REQUIRE(raster_hiz_init(&s.hiz, W, H));
      s.fmt.unorm = unorm;
      s.fmt.quantum = unorm ? 1.0f / 65535.0f : 0.0f;
      /* Clear to a random depth (encoded and read back like a clear). */
      float clear = (float)rt_uniform(0.2, 0.8);
      for (uint32_t y = 0; y < H; y++) {
         for (uint32_t x = 0; x < W; x++) {
            for (unsigned smp = 0; smp < (samples_log2 ? 4u : 1u); smp++) {
               struct ppu_texel t = {{{clear}}};
               ppu_texel_encode(f, &t, false, rop_surface_sample(&s.ds, x, y, smp));
            }
         }
      }
      struct ppu_texel back;
      ppu_texel_decode(f, rop_surface_sample(&s.ds, 0, 0, 0), false, &back);
      raster_hiz_clear(&s.hiz, back.f[0]);
      s.z.depth_test = true;
      s.z.depth_write = true;
      s.z.depth_op = (uint8_t)op;
      for (unsigned tri = 0; tri < 120; tri++) {
         struct raster_window_vertex v[3];
         double base = rt_uniform(0, 1);
         for (unsigned i = 0; i < 3; i++) {
            v[i].x = rt_uniform(-10, W + 10);
            v[i].y = rt_uniform(-10, H + 10);
            /* Some flat triangles at exactly the clear value (EQUAL). */
            v[i].z = tri % 7 == 0 ? clear : (float)(base + rt_uniform(-0.3, 0.3));
            v[i].inverse_w = 1.0f;
         }
         struct raster_setup_state st = rt_default_setup(W, H);
         st.depth.bias_enable = tri % 5 == 1;
         st.depth.bias_constant = (float)rt_uniform(-4, 4);
         st.depth.bias_slope = (float)rt_uniform(-1, 1);
         st.depth.unorm_bits = unorm ? 16 : 0;
         st.depth.clamp_enable = tri % 3 == 2;
         st.depth.clamp_min = 0.1f;
         st.depth.clamp_max = 0.9f;
         struct raster_triangle t;
         if (!raster_setup_triangle(&st, v, &t))
            continue;
         s.t = &t;
         raster_coarse_walk(&t, visit, &s);
      }
      CHECK_MSG(s.culled_wrongly == 0,
                "scene %u (op %u, unorm %d, %ux, exact %d): %u tiles culled "
                "with passing samples",
                scene_i, op, unorm, samples_log2 ? 4 : 1, s.exact, s.culled_wrongly);
      total_culled += s.culled;
      raster_hiz_free(&s.hiz);
      free(mem);
   }
   /* The test means something only if hi-Z does cull. */
   CHECK(total_culled > 1000);
}

TEST_CASE(hiz_range_tests_follow_each_compare_op)
{
   struct raster_hiz h;
   REQUIRE(raster_hiz_init(&h, 16, 16));
   struct raster_hiz_format f = {false, 0.0f};
   raster_hiz_set(&h, 0, 0, 0.4f, 0.6f);
   CHECK(!raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_LESS, 0.6f, 0.9f));
   CHECK(raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_LESS_OR_EQUAL, 0.6f, 0.9f));
   CHECK(!raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_GREATER, 0.1f, 0.4f));
   CHECK(raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_GREATER_OR_EQUAL, 0.1f, 0.4f));
   CHECK(!raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_EQUAL, 0.7f, 0.9f));
   CHECK(!raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_NEVER, 0.0f, 1.0f));
   CHECK(raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_ALWAYS, 2.0f, 3.0f));
   raster_hiz_set(&h, 1, 0, 0.5f, 0.5f);
   CHECK(!raster_hiz_may_pass(&h, &f, 1, 0, PPU_GFX_COMPARE_NOT_EQUAL, 0.5f, 0.5f));
   CHECK(raster_hiz_may_pass(&h, &f, 1, 0, PPU_GFX_COMPARE_NOT_EQUAL, 0.5f, 0.6f));
   /* Unknown tiles never cull. */
   raster_hiz_reset(&h);
   CHECK(raster_hiz_may_pass(&h, &f, 0, 0, PPU_GFX_COMPARE_LESS, 100.0f, 200.0f));
   raster_hiz_free(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
