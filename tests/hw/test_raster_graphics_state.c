/* The graphics engine's state methods: each group decodes into the units'
 * state as graphics.h and docs/graphics-hw.md define it, undefined methods
 * and bad data fault without latching, actions are reported, and a small
 * draw through the decoded state (clip, setup, coarse and fine raster,
 * ZROP, CROP) lands where and as the state says. */
#include <stdio.h>
#include <stdlib.h>

#include "raster/graphics_state.h"
#include "raster_test_util.h"
#include "test_harness.h"

static uint32_t fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static bool write(struct ppu_graphics_state *s, uint32_t m, uint32_t d)
{
   enum ppu_graphics_action a;
   struct ppu_fault f;
   return ppu_graphics_state_write(s, m, d, &a, &f) == PPU_METHOD_DONE;
}

TEST_CASE(reset_state_is_permissive_and_decodes_to_defaults)
{
   struct ppu_graphics_state s;
   ppu_graphics_state_init(&s);
   struct raster_setup_state r;
   ppu_graphics_state_setup(&s, 0, &r);
   CHECK(r.cull == 0 && r.clip.x0 == 0 && r.clip.y0 == 0);
   CHECK(r.clip.x1 == 16384 && r.clip.y1 == 16384);
   struct rop_blend_state b;
   ppu_graphics_state_blend(&s, &b);
   for (unsigned i = 0; i < 8; i++)
      CHECK(b.target[i].write_mask == 0xf && !b.target[i].enable);
   struct rop_zs_state z;
   ppu_graphics_state_zs(&s, &z);
   CHECK(!z.depth_test && !z.stencil_test);
   CHECK(s.word[PPU_GFX_SAMPLE_MASK] == 0xf);
}

TEST_CASE(state_groups_decode_into_unit_state)
{
   for (unsigned iter = 0; iter < 200; iter++) {
      struct ppu_graphics_state s;
      ppu_graphics_state_init(&s);
      unsigned i = rt_rng() % 8;
      unsigned f[4] = {rt_rng() % 19, rt_rng() % 19, rt_rng() % 19, rt_rng() % 19};
      unsigned op[2] = {rt_rng() % 5, rt_rng() % 5};
      unsigned mask = rt_rng() % 16;
      REQUIRE(write(&s, PPU_GFX_BLEND(i),
                    PPU_GFX_BLEND_EQUATION(f[0], f[1], op[0], f[2], f[3], op[1])));
      REQUIRE(write(&s, PPU_GFX_BLEND(i) + 1, 1u | mask << 4));
      REQUIRE(write(&s, PPU_GFX_LOGIC_OP, 0x10 | (iter % 16)));
      REQUIRE(write(&s, PPU_GFX_BLEND_CONSTANT_R + iter % 4, fbits(0.25f)));
      struct rop_blend_state b;
      ppu_graphics_state_blend(&s, &b);
      const struct rop_blend_target *t = &b.target[i];
      CHECK(t->enable && t->write_mask == mask);
      CHECK(t->src_color == f[0] && t->dst_color == f[1] && t->color_op == op[0]);
      CHECK(t->src_alpha == f[2] && t->dst_alpha == f[3] && t->alpha_op == op[1]);
      CHECK(b.logic_op_enable && b.logic_op == iter % 16);
      CHECK(b.constant[iter % 4] == 0.25f);

      unsigned so[4] = {rt_rng() % 8, rt_rng() % 8, rt_rng() % 8, rt_rng() % 8};
      uint8_t m[3] = {(uint8_t)rt_rng(), (uint8_t)rt_rng(), (uint8_t)rt_rng()};
      uint32_t face = iter % 2 ? PPU_GFX_STENCIL_BACK_OPS : PPU_GFX_STENCIL_FRONT_OPS;
      REQUIRE(write(&s, face, PPU_GFX_STENCIL_OPS(so[0], so[1], so[2], so[3])));
      REQUIRE(write(&s, face + 1, PPU_GFX_STENCIL_MASKS(m[0], m[1], m[2])));
      REQUIRE(write(&s, PPU_GFX_STENCIL_ENABLE, 1));
      REQUIRE(write(&s, PPU_GFX_DEPTH_TEST, 3));
      REQUIRE(write(&s, PPU_GFX_DEPTH_COMPARE, so[3]));
      struct rop_zs_state z;
      ppu_graphics_state_zs(&s, &z);
      const struct rop_stencil_face *sf = iter % 2 ? &z.back : &z.front;
      CHECK(sf->fail_op == so[0] && sf->pass_op == so[1] && sf->depth_fail_op == so[2]);
      CHECK(sf->compare_op == so[3] && sf->compare_mask == m[0] && sf->write_mask == m[1] &&
            sf->reference == m[2]);
      CHECK(z.stencil_test && z.depth_test && z.depth_write && z.depth_op == so[3]);

      /* Scissor ∩ render area ∩ target extent. */
      unsigned vp = rt_rng() % 16;
      uint32_t sx0 = rt_rng() % 100, sy0 = rt_rng() % 100, sx1 = sx0 + rt_rng() % 300,
               sy1 = sy0 + rt_rng() % 300;
      uint32_t ax0 = rt_rng() % 100, ay0 = rt_rng() % 100;
      uint32_t tw = 1 + rt_rng() % 400, th = 1 + rt_rng() % 400;
      REQUIRE(write(&s, PPU_GFX_SCISSOR(vp), sx0 | sy0 << 16));
      REQUIRE(write(&s, PPU_GFX_SCISSOR(vp) + 1, sx1 | sy1 << 16));
      REQUIRE(write(&s, PPU_GFX_RENDER_AREA_XY0, ax0 | ay0 << 16));
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_FORMAT,
                    PPU_TEX_FORMAT_R8G8B8A8_UNORM));
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_EXTENT, tw | th << 16));
      REQUIRE(write(&s, PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_FORMAT,
                    iter % 3 == 0   ? PPU_TEX_FORMAT_D16_UNORM
                    : iter % 3 == 1 ? PPU_TEX_FORMAT_D24_UNORM_S8_UINT
                                    : PPU_TEX_FORMAT_D32_SFLOAT));
      REQUIRE(write(&s, PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_EXTENT, 512 | 512 << 16));
      struct raster_setup_state r;
      ppu_graphics_state_setup(&s, vp, &r);
      CHECK(r.clip.x0 == (int32_t)(sx0 > ax0 ? sx0 : ax0));
      CHECK(r.clip.y0 == (int32_t)(sy0 > ay0 ? sy0 : ay0));
      CHECK(r.clip.x1 == (int32_t)(sx1 < tw ? sx1 : tw));
      CHECK(r.clip.y1 == (int32_t)(sy1 < th ? sy1 : th));
      CHECK(r.depth.unorm_bits == (iter % 3 == 0 ? 16u : iter % 3 == 1 ? 24u : 0u));

      /* The distances that clip and those that cull reach the clipper. */
      uint32_t clip_mask = rt_rng() % 256, cull_mask = rt_rng() % 256;
      REQUIRE(write(&s, PPU_GFX_CLIP_DISTANCE_MASK, clip_mask));
      REQUIRE(write(&s, PPU_GFX_CULL_DISTANCE_MASK, cull_mask));
      struct raster_clip_state cs;
      ppu_graphics_state_clip(&s, vp, &cs);
      CHECK(cs.clip_distance_mask == clip_mask && cs.cull_distance_mask == cull_mask);

      struct ppu_graphics_target tg;
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_ADDR_HI, 0x12));
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_ADDR_LO, 0x3400));
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_LAYOUT, 1 | 3 << 8));
      REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(i) + PPU_GFX_TARGET_LAYER_STRIDE, 7));
      ppu_graphics_state_target(&s, i, &tg);
      CHECK(tg.va == 0x1200003400ull && tg.layout == PPU_TEX_LAYOUT_BLOCK_LINEAR &&
            tg.block_height_log2 == 3 && tg.width == tw && tg.height == th &&
            tg.layer_stride == 7u * 512);
   }
}

TEST_CASE(undefined_methods_and_bad_data_fault_without_latching)
{
   struct ppu_graphics_state s;
   ppu_graphics_state_init(&s);
   const uint32_t undefined[] = {0x003, 0x0ff, 0x156, 0x1c8, 0x2a0, 0x311, 0x34a, 0x390, 0x3a6,
                                 0x404, 0x444, 0x48d, 0x4c4, 0x4d1, 0x4ff, 0x500, 0x1fff};
   for (unsigned i = 0; i < sizeof(undefined) / sizeof(undefined[0]); i++) {
      enum ppu_graphics_action a;
      struct ppu_fault f;
      CHECK(ppu_graphics_state_write(&s, undefined[i], 0, &a, &f) == PPU_METHOD_FAULT);
      CHECK(f.kind == PPU_FAULT_BAD_METHOD && f.engine == PPU_ENGINE_GRAPHICS);
   }
   struct {
      uint32_t method, data;
   } bad[] = {
       {PPU_GFX_SAMPLES_LOG2, 1},
       {PPU_GFX_SAMPLE_MASK, 0x10},
       {PPU_GFX_LAYER_OFFSET, 2048},
       {PPU_GFX_TOPOLOGY, 6},
       {PPU_GFX_CULL, 4},
       {PPU_GFX_DEPTH_COMPARE, 8},
       {PPU_GFX_STENCIL_FRONT_OPS, 0x8},
       {PPU_GFX_STENCIL_BACK_MASKS, 1u << 24},
       {PPU_GFX_BLEND(3), 19},
       {PPU_GFX_BLEND(3), 5u << 10},
       {PPU_GFX_BLEND(3) + 1, 0x100},
       {PPU_GFX_LOGIC_OP, 0x20},
       {PPU_GFX_INDEX_SIZE, 3},
       {PPU_GFX_COLOR_TARGET(2) + PPU_GFX_TARGET_FORMAT, PPU_TEX_FORMAT_BC1_RGB_UNORM},
       {PPU_GFX_COLOR_TARGET(2) + PPU_GFX_TARGET_FORMAT, PPU_TEX_FORMAT_COUNT},
       {PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_LAYOUT, 6u << 8},
       {PPU_GFX_COLOR_TARGET(0) + PPU_GFX_TARGET_EXTENT, 16385},
       {PPU_GFX_SCISSOR(5) + 1, 16385u << 16},
       {PPU_GFX_SCRATCH_SIZE, 100},
       {PPU_GFX_DRAW, 2},
       {PPU_GFX_DRAW_INDIRECT, 4},
       {PPU_GFX_RESOLVE, 1u << 16},
       {PPU_GFX_PIXEL_ORDER, 2},
       {PPU_GFX_CLIP_DISTANCE_MASK, 0x100},
       {PPU_GFX_CULL_DISTANCE_MASK, 0x100},
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      uint32_t before = s.word[bad[i].method];
      enum ppu_graphics_action a;
      struct ppu_fault f;
      CHECK_MSG(ppu_graphics_state_write(&s, bad[i].method, bad[i].data, &a, &f) ==
                    PPU_METHOD_FAULT,
                "method 0x%x data 0x%x accepted", bad[i].method, bad[i].data);
      CHECK(f.kind == PPU_FAULT_BAD_METHOD_DATA && f.engine == PPU_ENGINE_GRAPHICS);
      CHECK(s.word[bad[i].method] == before);
   }
}

TEST_CASE(action_methods_are_reported)
{
   struct ppu_graphics_state s;
   ppu_graphics_state_init(&s);
   const struct {
      uint32_t method;
      enum ppu_graphics_action action;
   } acts[] = {{PPU_GFX_DRAW, PPU_GFX_ACTION_DRAW},
               {PPU_GFX_DRAW_INDIRECT, PPU_GFX_ACTION_DRAW_INDIRECT},
               {PPU_GFX_QUERY_BEGIN, PPU_GFX_ACTION_QUERY_BEGIN},
               {PPU_GFX_QUERY_END, PPU_GFX_ACTION_QUERY_END},
               {PPU_GFX_RESOLVE, PPU_GFX_ACTION_RESOLVE},
               {PPU_GFX_DRAW_COUNT, PPU_GFX_ACTION_NONE}};
   for (unsigned i = 0; i < 6; i++) {
      enum ppu_graphics_action a;
      struct ppu_fault f;
      CHECK(ppu_graphics_state_write(&s, acts[i].method, 1, &a, &f) == PPU_METHOD_DONE);
      CHECK(a == acts[i].action);
   }
}

/* Draws one clip-space triangle through the decoded state into the color
 * and depth targets (the functional DRAW path without the SM: the
 * "fragment program" outputs a constant color). */
static void draw(const struct ppu_graphics_state *s, struct rop_surface *color,
                 struct rop_surface *depth, const float pos[3][4], struct ppu_texel c)
{
   struct raster_clip_state cs;
   struct raster_setup_state ss;
   struct rop_zs_state zs;
   struct rop_blend_state bs;
   ppu_graphics_state_clip(s, 0, &cs);
   ppu_graphics_state_setup(s, 0, &ss);
   ppu_graphics_state_zs(s, &zs);
   ppu_graphics_state_blend(s, &bs);
   struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES];
   unsigned n = raster_clip_triangle(&cs, pos, NULL, out);
   uint32_t vp = PPU_GFX_VIEWPORT(0);
   for (unsigned i = 1; i + 1 < n; i++) {
      const struct raster_clip_vertex *f[3] = {&out[0], &out[i], &out[i + 1]};
      struct raster_window_vertex v[3];
      for (unsigned k = 0; k < 3; k++) {
         double iw = 1.0 / f[k]->position[3];
         v[k].x = f[k]->position[0] * iw * ppu_graphics_state_float(s, vp + 0) +
                  ppu_graphics_state_float(s, vp + 3);
         v[k].y = f[k]->position[1] * iw * ppu_graphics_state_float(s, vp + 1) +
                  ppu_graphics_state_float(s, vp + 4);
         v[k].z = (float)(f[k]->position[2] * iw * ppu_graphics_state_float(s, vp + 2) +
                          ppu_graphics_state_float(s, vp + 5));
         v[k].inverse_w = (float)iw;
      }
      struct raster_triangle t;
      if (!raster_setup_triangle(&ss, v, &t))
         continue;
      for (int32_t ty = t.bounds.y0 / 8; ty <= (t.bounds.y1 - 1) / 8; ty++) {
         for (int32_t tx = t.bounds.x0 / 8; tx <= (t.bounds.x1 - 1) / 8; tx++) {
            enum raster_tile_class cl = raster_coarse_classify(&t, tx, ty);
            if (cl == RASTER_TILE_OUTSIDE)
               continue;
            struct raster_quad q[RASTER_QUADS_PER_TILE];
            unsigned nq = raster_fine_tile(&t, tx, ty, s->word[PPU_GFX_SAMPLES_LOG2],
                                           s->word[PPU_GFX_SAMPLE_MASK], cl == RASTER_TILE_FULL, q);
            for (unsigned k = 0; k < nq; k++) {
               uint64_t passed = 0;
               uint16_t cov = rop_zrop_quad(&zs, depth, q[k].x, q[k].y, q[k].coverage, q[k].depth,
                                            t.front_facing, &passed);
               struct ppu_texel src[4] = {c, c, c, c};
               rop_crop_quad(&bs, 0, color, q[k].x, q[k].y, cov, src, NULL);
            }
         }
      }
   }
}

TEST_CASE(a_draw_through_the_decoded_state_lands_where_the_state_says)
{
   enum { W = 32, H = 32 };
   uint32_t *rgba = calloc(W * H, 4);
   float *z = malloc(W * H * 4);
   for (unsigned i = 0; i < W * H; i++)
      z[i] = 1.0f;
   struct ppu_graphics_state s;
   ppu_graphics_state_init(&s);
   uint32_t vp = PPU_GFX_VIEWPORT(0);
   /* Viewport (0, 0, 32, 32), depth 0..1; scissor x >= 4; LESS with
    * writes; additive blending; write mask R, G, A (no B). */
   REQUIRE(write(&s, vp + PPU_GFX_VIEWPORT_SCALE_X, fbits(16)));
   REQUIRE(write(&s, vp + PPU_GFX_VIEWPORT_SCALE_Y, fbits(16)));
   REQUIRE(write(&s, vp + PPU_GFX_VIEWPORT_SCALE_Z, fbits(1)));
   REQUIRE(write(&s, vp + PPU_GFX_VIEWPORT_OFFSET_X, fbits(16)));
   REQUIRE(write(&s, vp + PPU_GFX_VIEWPORT_OFFSET_Y, fbits(16)));
   REQUIRE(write(&s, PPU_GFX_SCISSOR(0), 4));
   REQUIRE(
       write(&s, PPU_GFX_COLOR_TARGET(0) + PPU_GFX_TARGET_FORMAT, PPU_TEX_FORMAT_R8G8B8A8_UNORM));
   REQUIRE(write(&s, PPU_GFX_COLOR_TARGET(0) + PPU_GFX_TARGET_EXTENT, W | H << 16));
   REQUIRE(write(&s, PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_FORMAT, PPU_TEX_FORMAT_D32_SFLOAT));
   REQUIRE(write(&s, PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_EXTENT, W | H << 16));
   REQUIRE(write(&s, PPU_GFX_DEPTH_TEST, 3));
   REQUIRE(write(&s, PPU_GFX_DEPTH_COMPARE, PPU_GFX_COMPARE_LESS));
   REQUIRE(
       write(&s, PPU_GFX_BLEND(0),
             PPU_GFX_BLEND_EQUATION(PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_OP_ADD,
                                    PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_ZERO, PPU_GFX_BLEND_OP_ADD)));
   REQUIRE(write(&s, PPU_GFX_BLEND(0) + 1, 1u | 0xbu << 4));
   struct rop_surface color, depth;
   REQUIRE(rop_surface_init(&color, (uint8_t *)rgba, PPU_TEX_FORMAT_R8G8B8A8_UNORM,
                            PPU_TEX_LAYOUT_LINEAR, 0, W * 4, W, H, 0));
   REQUIRE(rop_surface_init(&depth, (uint8_t *)z, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR,
                            0, W * 4, W, H, 0));
   /* A full-screen quad at depth 0.5 (red), then a triangle behind it
    * (0.75, blue: fails) and one in front over the left half (0.25,
    * green: adds). */
   const float full_a[3][4] = {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {1, 1, 0.5f, 1}};
   const float full_b[3][4] = {{-1, -1, 0.5f, 1}, {1, 1, 0.5f, 1}, {-1, 1, 0.5f, 1}};
   const float behind[3][4] = {{-1, -1, 0.75f, 1}, {3, -1, 0.75f, 1}, {-1, 3, 0.75f, 1}};
   const float front[3][4] = {{-1, -1, 0.25f, 1}, {0, -1, 0.25f, 1}, {0, 1, 0.25f, 1}};
   struct ppu_texel red = {{{0.5f, 0, 0.5f, 1}}}, blue = {{{0, 0, 1, 1}}},
                    green = {{{0, 0.5f, 0, 0.5f}}};
   draw(&s, &color, &depth, full_a, red);
   draw(&s, &color, &depth, full_b, red);
   draw(&s, &color, &depth, behind, blue);
   draw(&s, &color, &depth, front, green);
   unsigned bad = 0;
   for (int32_t y = 0; y < H; y++) {
      for (int32_t x = 0; x < W; x++) {
         uint32_t want = 0;
         float want_z = 1.0f;
         if (x >= 4) {
            /* Red (B masked off), alpha ONE/ZERO = 1. */
            want = 0xff000080u;
            want_z = 0.5f;
            /* The front triangle is (0, 0), (16, 0), (16, 32) in window
             * space; which centres it owns comes from the reference rule. */
            int64_t vx[3] = {0, 16 * 256, 16 * 256}, vy[3] = {0, 0, 32 * 256};
            if (rt_reference_covered(vx, vy, x * 256 + 128, y * 256 + 128)) {
               want = 0x80008080u; /* G 0.5 added, A = 0.5 (ONE/ZERO) */
               want_z = 0.25f;
            }
         }
         bad += rgba[y * W + x] != want || z[y * W + x] != want_z;
      }
   }
   CHECK_MSG(bad == 0, "%u pixels differ", bad);
   free(rgba);
   free(z);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
