/* The graphics path end to end: pushbuffers of graphics-subchannel methods
 * through the host interface and front end, vertex and fragment programs
 * (hand-assembled) running as warps on the SMs, the raster engine and the
 * ROP writing render targets in GPU memory. Results are compared with a
 * brute-force reference of the coverage rule (raster_test_util.h) and,
 * for attributes, with the spec's perspective-correct interpolation. */
#include <math.h>
#include <stdio.h>

#include "graphics_test_util.h"
#include "raster_test_util.h"
#include "tex_test_util.h"

#define W 64
#define H 48

/* A reference triangle in window pixels (multiples of 1/8, so every
 * conversion on the way is exact). */
struct ref_tri {
   double x[3], y[3];
   float z;
   uint32_t value;
};

static bool ref_covers(const struct ref_tri *t, double sx, double sy)
{
   return rt_reference_covers_window(t->x, t->y, sx, sy);
}

/* Last covering triangle wins (no depth test); depth LESS when zbuf. */
static void ref_draw(uint32_t *img, float *zbuf, const struct ref_tri *t, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      for (unsigned y = 0; y < H; y++)
         for (unsigned x = 0; x < W; x++) {
            if (!ref_covers(&t[i], x + 0.5, y + 0.5))
               continue;
            if (zbuf && !(t[i].z < zbuf[y * W + x]))
               continue;
            if (zbuf)
               zbuf[y * W + x] = t[i].z;
            img[y * W + x] = t[i].value;
         }
}

static double grid8(double lo, double hi)
{
   return round(rt_uniform(lo, hi) * 8.0) / 8.0;
}

/* An R32_UINT target of W x H, zeroed. */
static uint64_t u32_target(struct gtu *g)
{
   uint64_t va = hwt_alloc_scattered(&g->h.t, W * H * 4);
   return va;
}

static unsigned compare_u32(struct gtu *g, uint64_t va, const uint32_t *expect)
{
   uint32_t *got = malloc(W * H * 4);
   hwt_read(&g->h.t.mem, g->h.t.pd, va, got, W * H * 4);
   unsigned bad = 0;
   for (unsigned i = 0; i < W * H; i++) {
      if (got[i] != expect[i] && bad++ < 5)
         test_fail(__FILE__, __LINE__, "pixel (%u, %u): got 0x%x, expected 0x%x", i % W, i / W,
                   got[i], expect[i]);
   }
   free(got);
   return bad;
}

/* A default chip and the test vertex program. */
static bool begin(struct gtu *g, uint64_t *vp)
{
   if (!gtu_init(g, NULL))
      return false;
   *vp = gtu_program(g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   return true;
}

static void id_programs(struct gtu *g, uint64_t *vp, uint64_t *fp)
{
   *vp = gtu_program(g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   *fp = gtu_program(g, GTU_FRAGMENT_ID_PROGRAM, 0, 2, 1, GTU_INTERP_SLOT1_FLAT);
}

static void random_triangles(const struct ppu_gpu_config *cfg)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, cfg));
   uint64_t vp, fp, rt = u32_target(&g);
   id_programs(&g, &vp, &fp);
   enum { N = 40 };
   struct ref_tri t[N];
   for (unsigned i = 0; i < N; i++) {
      double cx = rt_uniform(-4, W + 4), cy = rt_uniform(-4, H + 4), r = i % 5 ? 8 : 30;
      for (unsigned k = 0; k < 3; k++) {
         t[i].x[k] = grid8(cx - r, cx + r);
         t[i].y[k] = grid8(cy - r, cy + r);
         gtu_vertex(&g, 3 * i + k, W, H, t[i].x[k], t[i].y[k], 0.5f, 1.0f, NULL);
      }
      t[i].value = i + 1;
   }
   uint64_t prims_before = hwt_counter(&g.h.t, PPU_COUNTER_GFX_PRIMITIVES);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3 * N, 0, 1, 0, 0);
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   uint32_t expect[W * H] = {0};
   ref_draw(expect, NULL, t, N);
   CHECK(compare_u32(&g, rt, expect) == 0);
   CHECK_EQ_U64(hwt_counter(&g.h.t, PPU_COUNTER_GFX_PRIMITIVES) - prims_before, N);
   CHECK(hwt_counter(&g.h.t, PPU_COUNTER_GFX_QUADS) > 0);
   CHECK(hwt_counter(&g.h.t, PPU_COUNTER_GFX_FRAGMENT_WARPS) > 0);
   gtu_finish(&g);
}

TEST_CASE(random_triangles_equal_the_reference)
{
   random_triangles(NULL);
}

static void small_config(struct ppu_gpu_config *cfg)
{
   ppu_gpu_config_default(cfg);
   cfg->vram_size = 256ull << 20;
   cfg->max_channels = 16;
}

/* One SM runs the vertex and the fragment warps, switching programs. */
TEST_CASE(random_triangles_on_a_one_sm_chip)
{
   struct ppu_gpu_config cfg;
   small_config(&cfg);
   cfg.gpc_count = cfg.tpcs_per_gpc = cfg.sms_per_tpc = 1;
   random_triangles(&cfg);
}

/* Timing mode runs graphics functionally (docs/graphics-hw.md): the same
 * pixels. */
TEST_CASE(random_triangles_in_timing_mode)
{
   struct ppu_gpu_config cfg;
   small_config(&cfg);
   cfg.mode = PPU_GPU_MODE_TIMING;
   cfg.timing_progress = false;
   random_triangles(&cfg);
}

/* A 4x3 grid of vertices 12 px apart, vertex i at column i % 4, row i / 4. */
static void grid_vertices(struct gtu *g, double *x, double *y)
{
   for (unsigned i = 0; i < 12; i++) {
      x[i] = 4 + 12.0 * (i % 4) + (i / 4) * 1.5;
      y[i] = 4 + 13.0 * (i / 4);
      gtu_vertex(g, i, W, H, x[i], y[i], 0.5f, 1.0f, NULL);
   }
}

static struct ref_tri tri_of(const double *x, const double *y, uint32_t a, uint32_t b, uint32_t c,
                             uint32_t value)
{
   struct ref_tri t = {{x[a], x[b], x[c]}, {y[a], y[b], y[c]}, 0.5f, value};
   return t;
}

TEST_CASE(indexed_strip_with_restart_sizes_limit_and_offset)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp, fp, rt = u32_target(&g);
   id_programs(&g, &vp, &fp);
   double x[12], y[12];
   grid_vertices(&g, x, y);
   uint64_t ib = hwt_alloc_mapped(&g.h.t, 4096, true);

   /* 2-byte strip: 0 4 1 5 | restart | 5 9 6 10 7 11. */
   const uint16_t strip[] = {0, 4, 1, 5, 0xffff, 5, 9, 6, 10, 7, 11};
   hwt_write(&g.h.t.mem, g.h.t.pd, ib, strip, sizeof(strip));
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_set(&g, PPU_GFX_TOPOLOGY, PPU_GFX_TOPOLOGY_TRIANGLE_STRIP);
   gtu_set(&g, PPU_GFX_PRIMITIVE_RESTART, 1);
   gtu_set64(&g, PPU_GFX_INDEX_ADDR_LO, ib);
   gtu_set(&g, PPU_GFX_INDEX_SIZE, 2);
   gtu_set(&g, PPU_GFX_INDEX_LIMIT, 11);
   gtu_draw(&g, 0, 11, 0, 1, 0, PPU_GFX_DRAW_FLAG_INDEXED);
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   /* Strip triangle t is (t, t + 1 + t % 2, t + 2 - t % 2) of its run;
    * primitive ids keep counting across the restart. */
   struct ref_tri t[6] = {
       tri_of(x, y, 0, 4, 1, 1),  tri_of(x, y, 4, 5, 1, 2),  tri_of(x, y, 5, 9, 6, 3),
       tri_of(x, y, 9, 10, 6, 4), tri_of(x, y, 6, 10, 7, 5), tri_of(x, y, 10, 11, 7, 6),
   };
   uint32_t expect[W * H] = {0};
   ref_draw(expect, NULL, t, 6);
   CHECK(compare_u32(&g, rt, expect) == 0);

   /* 1-byte list whose last index lies beyond INDEX_LIMIT (reads 0), and
    * 4-byte indices with a vertex offset of -2. */
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, expect, 0);
   uint8_t *zero = calloc(W * H, 4);
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, zero, W * H * 4);
   free(zero);
   const uint8_t list8[] = {5, 6, 10, 9, 2};
   hwt_write(&g.h.t.mem, g.h.t.pd, ib, list8, sizeof(list8));
   const uint32_t list32[] = {2, 3, 7};
   hwt_write(&g.h.t.mem, g.h.t.pd, ib + 64, list32, sizeof(list32));
   gtu_set(&g, PPU_GFX_TOPOLOGY, PPU_GFX_TOPOLOGY_TRIANGLE_LIST);
   gtu_set(&g, PPU_GFX_INDEX_SIZE, 1);
   gtu_set(&g, PPU_GFX_INDEX_LIMIT, 5);
   gtu_draw(&g, 3, 3, 0, 1, 0, PPU_GFX_DRAW_FLAG_INDEXED); /* 9, 2, (5 >= limit: 0) */
   gtu_set64(&g, PPU_GFX_INDEX_ADDR_LO, ib + 64);
   gtu_set(&g, PPU_GFX_INDEX_SIZE, 4);
   gtu_set(&g, PPU_GFX_INDEX_LIMIT, 3);
   gtu_draw(&g, 0, 3, 0, 1, 1, PPU_GFX_DRAW_FLAG_INDEXED); /* 3, 4, 8 */
   REQUIRE(gtu_submit(&g, &f));
   struct ref_tri t2[2] = {tri_of(x, y, 9, 2, 0, 1), tri_of(x, y, 3, 4, 8, 1)};
   memset(expect, 0, sizeof(expect));
   ref_draw(expect, NULL, t2, 2);
   CHECK(compare_u32(&g, rt, expect) == 0);
   gtu_finish(&g);
}

TEST_CASE(instances_indirect_and_indirect_count)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp, fp, rt = u32_target(&g);
   id_programs(&g, &vp, &fp);
   /* One small triangle; instance i moves right by 16 px (0.5 in NDC). */
   double x[3] = {2, 12, 4}, y[3] = {2, 4, 14};
   for (unsigned k = 0; k < 3; k++)
      gtu_vertex(&g, k, W, H, x[k], y[k], 0.5f, 1.0f, NULL);
   hwc_cb_write32(&g.h, 0x10, gtu_f(0.5f));
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 1, 3, 0, 0); /* instances 1, 2, 3 */
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   struct ref_tri t[3];
   for (unsigned i = 0; i < 3; i++) {
      t[i] = tri_of(x, y, 0, 1, 2, 1u | (i + 1) << 8);
      for (unsigned k = 0; k < 3; k++)
         t[i].x[k] += 16.0 * (i + 1);
   }
   uint32_t expect[W * H] = {0};
   ref_draw(expect, NULL, t, 3);
   CHECK(compare_u32(&g, rt, expect) == 0);

   /* Indirect: three records (draw ids 0, 1, 2), instance 0 and 2; with
    * COUNT_FROM_MEMORY = 2 the third never runs. */
   uint64_t ind = hwt_alloc_mapped(&g.h.t, 4096, true);
   const struct ppu_gfx_draw_indirect rec[3] = {{3, 1, 0, 0}, {3, 1, 0, 2}, {3, 1, 0, 1}};
   hwt_write(&g.h.t.mem, g.h.t.pd, ind, rec, sizeof(rec));
   uint32_t two = 2;
   hwt_write(&g.h.t.mem, g.h.t.pd, ind + 1024, &two, 4);
   uint8_t *zero = calloc(W * H, 4);
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, zero, W * H * 4);
   free(zero);
   gtu_set64(&g, PPU_GFX_INDIRECT_ADDR_LO, ind);
   gtu_set(&g, PPU_GFX_INDIRECT_STRIDE, sizeof(rec[0]));
   gtu_set(&g, PPU_GFX_INDIRECT_MAX_COUNT, 3);
   gtu_set64(&g, PPU_GFX_INDIRECT_COUNT_ADDR_LO, ind + 1024);
   gtu_set(&g, PPU_GFX_DRAW_INDIRECT, PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY);
   REQUIRE(gtu_submit(&g, &f));
   struct ref_tri t2[2] = {tri_of(x, y, 0, 1, 2, 1),
                           tri_of(x, y, 0, 1, 2, 1u | 2u << 8 | 1u << 12)};
   for (unsigned k = 0; k < 3; k++)
      t2[1].x[k] += 32.0;
   memset(expect, 0, sizeof(expect));
   ref_draw(expect, NULL, t2, 2);
   CHECK(compare_u32(&g, rt, expect) == 0);
   gtu_finish(&g);
}

/* Draws vertices 0..count-1 as a triangle list into one linear W x H
 * target of `bytes` per pixel at rt; returns a host copy of the target
 * (NULL and a test failure when the channel faulted). */
static void *draw_and_read(struct gtu *g, uint64_t vp, uint64_t fp, uint64_t rt, unsigned format,
                           unsigned bytes, unsigned count)
{
   gtu_common_state(g, W, H, vp, fp);
   gtu_target(g, PPU_GFX_COLOR_TARGET(0), rt, format, W, H, W * bytes);
   gtu_draw(g, 0, count, 0, 1, 0, 0);
   struct ppu_fault f;
   if (!gtu_submit(g, &f)) {
      test_fail(__FILE__, __LINE__, "the draw faulted: %s", f.detail);
      return NULL;
   }
   void *got = malloc((size_t)W * H * bytes);
   hwt_read(&g->h.t.mem, g->h.t.pd, rt, got, (uint64_t)W * H * bytes);
   return got;
}

/* Slot 0 evaluated perspective-correctly from the planes: a / w planes
 * times 1 / (inverse-w plane); written to R0..R3 of a float target. */
static const char *interp_program = GTU_FRAGMENT_INTERP_PROGRAM("0", "0x3f800000");

TEST_CASE(perspective_correct_attributes_from_planes)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g, interp_program, 0, 1, 1, 0);
   uint64_t rt = hwt_alloc_scattered(&g.h.t, W * H * 16);
   const double x[3] = {3, 60, 10}, y[3] = {2, 10, 45};
   const float cw[3] = {1.0f, 2.0f, 4.0f};
   const float a[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}};
   for (unsigned k = 0; k < 3; k++)
      gtu_vertex(&g, k, W, H, x[k], y[k], 0.5f, cw[k], a[k]);
   float *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 3);
   REQUIRE(got);
   struct ref_tri t = {{x[0], x[1], x[2]}, {y[0], y[1], y[2]}, 0.5f, 0};
   unsigned bad = 0, covered = 0;
   for (unsigned py = 0; py < H; py++)
      for (unsigned px = 0; px < W; px++) {
         const float *o = &got[(py * W + px) * 4];
         if (!ref_covers(&t, px + 0.5, py + 0.5)) {
            CHECK(o[3] == 0.0f);
            continue;
         }
         covered++;
         /* Screen-space barycentrics, then the spec's perspective-correct
          * weights b_k / w_k normalized. */
         double sx = px + 0.5, sy = py + 0.5, b[3];
         double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
         for (unsigned k = 0; k < 3; k++) {
            unsigned i = (k + 1) % 3, j = (k + 2) % 3;
            b[k] = ((x[j] - x[i]) * (sy - y[i]) - (sx - x[i]) * (y[j] - y[i])) / area;
         }
         double den = b[0] / cw[0] + b[1] / cw[1] + b[2] / cw[2];
         double e0 = (b[0] / cw[0]) / den, e1 = (b[1] / cw[1]) / den;
         if ((fabs(o[0] - e0) > 2e-4 || fabs(o[1] - e1) > 2e-4 || o[3] != 1.0f) && bad++ < 5)
            test_fail(__FILE__, __LINE__, "pixel (%u, %u): got %g %g, expected %g %g", px, py, o[0],
                      o[1], e0, e1);
      }
   CHECK(bad == 0);
   CHECK(covered > 200);
   free(got);
   gtu_finish(&g);
}

/* Samples a 2-level texture with implicit LOD at uv = pixel centre / size:
 * the quad derivatives are one texel per pixel, so level 0's texel (x, y)
 * must come back exactly (a wrong quad mapping changes the level). */
static const char *tex_program =
    GTU_FRAGMENT_SLOT0_XY "LDC.U64 R16, c[0][RZ+0x18]\n"
                          "LDC.U64 R18, c[0][RZ+0x20]\n"
                          "TEX.AUTO.2D.F32 R0, R16, R18, R24, off[0:0:0]\n"
                          "EXIT\n";

TEST_CASE(tex_in_a_fragment_program_uses_screen_derivatives)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, W, H, 1, 2, 1);
   uint64_t tex = tt_image(&g.h, &hd);
   struct ppu_sampler_header smp;
   tt_sampler(&smp, PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_REPEAT);
   uint64_t smp_va = tt_upload(&g.h, &smp, sizeof(smp));
   hwc_cb_write32(&g.h, 0x18, (uint32_t)tex);
   hwc_cb_write32(&g.h, 0x1c, (uint32_t)(tex >> 32));
   hwc_cb_write32(&g.h, 0x20, (uint32_t)smp_va);
   hwc_cb_write32(&g.h, 0x24, (uint32_t)(smp_va >> 32));
   uint64_t vp = gtu_program(&g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   uint64_t fp = gtu_program(&g, tex_program, 0, 1, 1, PPU_GFX_INTERP_NOPERSPECTIVE);
   uint64_t rt = hwt_alloc_scattered(&g.h.t, W * H * 4);
   /* Two triangles over the whole target, uv = position / size. */
   const double cx[4] = {0, W, 0, W}, cy[4] = {0, 0, H, H};
   const unsigned order[6] = {0, 1, 2, 1, 3, 2};
   for (unsigned i = 0; i < 6; i++) {
      float uv[4] = {(float)(cx[order[i]] / W), (float)(cy[order[i]] / H), 0, 0};
      gtu_vertex(&g, i, W, H, cx[order[i]], cy[order[i]], 0.5f, 1.0f, uv);
   }
   uint8_t *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R8G8B8A8_UNORM, 4, 6);
   REQUIRE(got);
   unsigned bad = 0;
   for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++)
         for (unsigned c = 0; c < 4; c++) {
            unsigned e = (unsigned)lroundf(tt_value(0, 0, x, y, 0, c) * 255.0f);
            if (got[(y * W + x) * 4 + c] != e && bad++ < 5)
               test_fail(__FILE__, __LINE__, "pixel (%u, %u) component %u: %u, expected %u", x, y,
                         c, got[(y * W + x) * 4 + c], e);
         }
   CHECK(bad == 0);
   free(got);
   gtu_finish(&g);
}

/* Discards odd columns (clears R34, the coverage register); writes the id. */
static const char *discard_program = "AND.U32 R9, R0, 1\n"
                                     "ISETP.NE.U32 P0, R9, 0, PT\n"
                                     "@P0 MOV R34, 0\n"
                                     "IADD.U32 R0, R7, 1\n"
                                     "EXIT\n";
/* Writes depth 1 - z and the id. */
static const char *depth_program = "FADD.F32 R32, RZ, 1.0f\n"
                                   "FSUB.F32 R32, R32, R6\n"
                                   "IADD.U32 R0, R7, 1\n"
                                   "EXIT\n";

/* Two overlapping triangles, A (z 0.2) then B (z 0.6), with depth LESS. */
static void draw_pair(struct gtu *g, uint64_t fp, uint64_t rt, uint64_t ds, struct ref_tri t[2])
{
   uint64_t vp = gtu_program(g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   const double x[6] = {2, 50, 8, 14, 62, 30}, y[6] = {2, 10, 40, 6, 20, 46};
   const float z[2] = {0.2f, 0.6f};
   for (unsigned i = 0; i < 6; i++)
      gtu_vertex(g, i, W, H, x[i], y[i], z[i / 3], 1.0f, NULL);
   for (unsigned i = 0; i < 2; i++)
      t[i] = (struct ref_tri){{x[3 * i], x[3 * i + 1], x[3 * i + 2]},
                              {y[3 * i], y[3 * i + 1], y[3 * i + 2]},
                              z[i],
                              i + 1};
   gtu_clear_depth(g, ds, W * H);
   uint8_t *zero = calloc(W * H, 4);
   hwt_write(&g->h.t.mem, g->h.t.pd, rt, zero, W * H * 4);
   free(zero);
   gtu_common_state(g, W, H, vp, fp);
   gtu_target(g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_depth_less(g, ds, W, H);
   gtu_draw(g, 0, 6, 0, 1, 0, 0);
}

/* The reference of draw_pair with the depths the fragments end up with. */
static void expect_pair(struct ref_tri t[2], float z0, float z1, uint32_t *expect)
{
   static float zbuf[W * H];
   t[0].z = z0, t[1].z = z1;
   memset(expect, 0, W * H * 4);
   for (unsigned i = 0; i < W * H; i++)
      zbuf[i] = 1.0f;
   ref_draw(expect, zbuf, t, 2);
}

TEST_CASE(discard_depth_write_and_occlusion_query)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t rt = u32_target(&g), ds = hwt_alloc_scattered(&g.h.t, W * H * 4);
   uint64_t q = hwt_alloc_mapped(&g.h.t, 4096, true);
   struct ref_tri t[2];
   struct ppu_fault f;
   uint32_t expect[W * H];

   /* Plain program (early tests) inside an occlusion query. */
   uint64_t fp = gtu_program(&g, GTU_FRAGMENT_ID_PROGRAM, 0, 2, 1, GTU_INTERP_SLOT1_FLAT);
   gtu_set64(&g, PPU_GFX_QUERY_ADDR_LO, q);
   gtu_set(&g, PPU_GFX_QUERY_BEGIN, 0);
   draw_pair(&g, fp, rt, ds, t);
   gtu_set(&g, PPU_GFX_QUERY_END, 0);
   REQUIRE(gtu_submit(&g, &f));
   expect_pair(t, 0.2f, 0.6f, expect);
   CHECK(compare_u32(&g, rt, expect) == 0);
   uint64_t samples = 0;
   for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++)
         samples += ref_covers(&t[0], x + 0.5, y + 0.5) +
                    (ref_covers(&t[1], x + 0.5, y + 0.5) && !ref_covers(&t[0], x + 0.5, y + 0.5));
   struct ppu_query_record rec;
   hwt_read(&g.h.t.mem, g.h.t.pd, q, &rec, sizeof(rec));
   CHECK_EQ_U64(rec.value, samples);
   CHECK_EQ_U64(rec.available, 1);

   /* Writing 1 - z reverses who wins the overlap (late tests). */
   fp = gtu_program(&g, depth_program, PPU_GFX_PROGRAM_WRITES_DEPTH, 2, 1, 0);
   draw_pair(&g, fp, rt, ds, t);
   REQUIRE(gtu_submit(&g, &f));
   expect_pair(t, 0.8f, 0.4f, expect);
   CHECK(compare_u32(&g, rt, expect) == 0);

   /* Discarded odd columns keep neither color nor depth. */
   fp = gtu_program(&g, discard_program, PPU_GFX_PROGRAM_MAY_DISCARD, 2, 1, 0);
   draw_pair(&g, fp, rt, ds, t);
   REQUIRE(gtu_submit(&g, &f));
   expect_pair(t, 0.2f, 0.6f, expect);
   for (unsigned i = 0; i < W * H; i++)
      if (i % 2)
         expect[i] = 0;
   CHECK(compare_u32(&g, rt, expect) == 0);
   CHECK(hwt_counter(&g.h.t, PPU_COUNTER_GFX_SAMPLES_PASSED) > 0);
   gtu_finish(&g);
}

TEST_CASE(msaa_4x_and_resolve)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g,
                             "MOV R0, 0x3f800000\nMOV R1, 0x3f800000\n"
                             "MOV R2, 0x3f800000\nMOV R3, 0x3f800000\nEXIT\n",
                             0, 0, 1, 0);
   uint64_t ms = hwt_alloc_scattered(&g.h.t, W * H * 16),
            rs = hwt_alloc_scattered(&g.h.t, W * H * 4);
   struct ref_tri t = {{3.25, 61.5, 20.125}, {1.75, 17.5, 46.375}, 0.5f, 0};
   for (unsigned k = 0; k < 3; k++)
      gtu_vertex(&g, k, W, H, t.x[k], t.y[k], 0.5f, 1.0f, NULL);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_set(&g, PPU_GFX_SAMPLES_LOG2, 2);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), ms, PPU_TEX_FORMAT_R8G8B8A8_UNORM, W, H, W * 8);
   gtu_target(&g, PPU_GFX_RESOLVE_TARGET(0), rs, PPU_TEX_FORMAT_R8G8B8A8_UNORM, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   gtu_set(&g, PPU_GFX_RESOLVE, 1u | 0u << PPU_GFX_RESOLVE_COLOR_MODE_SHIFT);
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   uint8_t *got = malloc(W * H * 4);
   hwt_read(&g.h.t.mem, g.h.t.pd, rs, got, W * H * 4);
   unsigned bad = 0, partial = 0;
   for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++) {
         unsigned k = 0;
         for (unsigned s = 0; s < 4; s++) {
            double px, py;
            rt_sample_position(4, s, &px, &py);
            k += ref_covers(&t, x + px, y + py);
         }
         partial += k == 1 || k == 2 || k == 3;
         int e = (int)lround(k * 255.0 / 4.0), v = got[(y * W + x) * 4];
         if (abs(v - e) > 1 && bad++ < 5)
            test_fail(__FILE__, __LINE__, "pixel (%u, %u): %d, expected %d (%u samples)", x, y, v,
                      e, k);
      }
   CHECK(bad == 0);
   CHECK(partial > 20);
   free(got);
   gtu_finish(&g);
}

/* Sample shading: every covered sample of a 4x R32_UINT target gets its
 * own invocation, which writes its sample index + 1 (R1 bits 9..8). */
TEST_CASE(sample_shading_runs_each_covered_sample)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g, "SHR.U32 R0, R1, 8\nAND.U32 R0, R0, 3\nIADD.U32 R0, R0, 1\nEXIT\n",
                             0, 0, 1, 0);
   uint64_t ms = hwt_alloc_scattered(&g.h.t, W * H * 16);
   struct ref_tri t = {{3.25, 61.5, 20.125}, {1.75, 17.5, 46.375}, 0.5f, 0};
   for (unsigned k = 0; k < 3; k++)
      gtu_vertex(&g, k, W, H, t.x[k], t.y[k], 0.5f, 1.0f, NULL);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_set(&g, PPU_GFX_SAMPLES_LOG2, 2);
   gtu_set(&g, PPU_GFX_SAMPLE_SHADING, 1);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), ms, PPU_TEX_FORMAT_R32_UINT, W, H, W * 8);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   uint32_t *got = malloc(W * H * 16);
   hwt_read(&g.h.t.mem, g.h.t.pd, ms, got, W * H * 16);
   unsigned bad = 0;
   for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++)
         for (unsigned s = 0; s < 4; s++) {
            double px, py;
            rt_sample_position(4, s, &px, &py);
            uint32_t e = ref_covers(&t, x + px, y + py) ? s + 1 : 0;
            uint32_t v = got[(2 * y + (s >> 1)) * 2 * W + 2 * x + (s & 1)];
            if (v != e && bad++ < 5)
               test_fail(__FILE__, __LINE__, "pixel (%u, %u) sample %u: %u, expected %u", x, y, s,
                         v, e);
         }
   CHECK(bad == 0);
   free(got);
   gtu_finish(&g);
}

TEST_CASE(unmapped_target_and_bad_program_fault_the_channel)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp, fp;
   id_programs(&g, &vp, &fp);
   for (unsigned k = 0; k < 3; k++)
      gtu_vertex(&g, k, W, H, 4.0 + 20 * k, 4.0 + 10 * (k % 2), 0.5f, 1.0f, NULL);
   uint64_t hole = hwt_alloc_va(&g.h.t, W * H * 4); /* never mapped */
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), hole, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   struct ppu_fault f;
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED);
   CHECK(f.engine == PPU_ENGINE_GRAPHICS);
   CHECK(f.subchannel == PPU_SUBCH_GRAPHICS && f.method == PPU_GFX_DRAW);
   CHECK(f.address >= hole && f.address < hole + W * H * 4);

   /* A descriptor of the wrong version. */
   REQUIRE(hwt_channel_restart(&g.h.c, "graphics"));
   struct ppu_gfx_program bad;
   hwt_read(&g.h.t.mem, g.h.t.pd, fp, &bad, sizeof(bad));
   bad.version = 7;
   uint64_t bad_va = hwt_alloc_mapped(&g.h.t, 4096, true);
   hwt_write(&g.h.t.mem, g.h.t.pd, bad_va, &bad, sizeof(bad));
   uint64_t rt = u32_target(&g);
   gtu_common_state(&g, W, H, vp, bad_va);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_BAD_METHOD_DATA);
   CHECK(strstr(f.detail, "version") != NULL);

   /* gl_PointCoord in a slot the fragment program does not read. */
   REQUIRE(hwt_channel_restart(&g.h.c, "graphics"));
   hwt_read(&g.h.t.mem, g.h.t.pd, fp, &bad, sizeof(bad));
   bad.flags |= PPU_GFX_PROGRAM_POINT_COORD;
   bad.point_coord_slot = bad.attribute_count;
   hwt_write(&g.h.t.mem, g.h.t.pd, bad_va, &bad, sizeof(bad));
   gtu_common_state(&g, W, H, vp, bad_va);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_BAD_METHOD_DATA);
   CHECK(strstr(f.detail, "point coordinate slot") != NULL);

   /* The chip goes on: a fresh channel draws. */
   REQUIRE(hwt_channel_restart(&g.h.c, "graphics"));
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   CHECK(gtu_submit(&g, &f));
   gtu_finish(&g);
}

/* The test vertex program that also writes a point size of 2. */
static const char *point_vertex_program = "MOV R28, 0x40000000\n"
                                          "ST.GLOBAL.U32 [R2+16], R28\n" GTU_VERTEX_PROGRAM;

static unsigned count_nonzero(const uint32_t *img)
{
   unsigned n = 0;
   for (unsigned i = 0; i < W * H; i++)
      n += img[i] != 0;
   return n;
}

TEST_CASE(points_lines_and_rasterizer_discard)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp = gtu_program(&g, point_vertex_program, 0, 2, 0, 0), fp, unused;
   id_programs(&g, &unused, &fp);
   uint64_t rt = u32_target(&g);
   /* Points of size 2 at (10, 10) and (30, 21): 2x2 pixels each. */
   gtu_vertex(&g, 0, W, H, 10, 10, 0.5f, 1.0f, NULL);
   gtu_vertex(&g, 1, W, H, 30, 21, 0.5f, 1.0f, NULL);
   gtu_set(&g, PPU_GFX_TOPOLOGY, PPU_GFX_TOPOLOGY_POINT_LIST);
   uint32_t *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 2);
   REQUIRE(got);
   CHECK(count_nonzero(got) == 8);
   CHECK(got[9 * W + 9] == 1 && got[10 * W + 10] == 1 && got[11 * W + 11] == 0);
   CHECK(got[20 * W + 29] == 2 && got[21 * W + 30] == 2);
   free(got);

   /* A width-1 line along y = 40.5 from x = 4 to 20: one pixel per column
    * of [4, 20). */
   gtu_vertex(&g, 0, W, H, 4, 40.5, 0.5f, 1.0f, NULL);
   gtu_vertex(&g, 1, W, H, 20, 40.5, 0.5f, 1.0f, NULL);
   uint8_t *zero = calloc(W * H, 4);
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, zero, W * H * 4);
   gtu_set(&g, PPU_GFX_TOPOLOGY, PPU_GFX_TOPOLOGY_LINE_LIST);
   got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 2);
   REQUIRE(got);
   CHECK(count_nonzero(got) == 16);
   for (unsigned x = 4; x < 20; x++)
      CHECK(got[40 * W + x] == 1);
   free(got);

   /* RASTERIZER_DISCARD: vertex warps run, nothing is drawn. */
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, zero, W * H * 4);
   free(zero);
   uint64_t warps = hwt_counter(&g.h.t, PPU_COUNTER_GFX_VERTEX_WARPS);
   gtu_set(&g, PPU_GFX_RASTERIZER_DISCARD, 1);
   got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 2);
   REQUIRE(got);
   CHECK(count_nonzero(got) == 0);
   CHECK(hwt_counter(&g.h.t, PPU_COUNTER_GFX_VERTEX_WARPS) == warps + 1);
   free(got);
   gtu_finish(&g);
}

/* Writes (0.25, 0.5, 0.75, 1) to a float target. */
static const char *quarter_program = "MOV R0, 0x3e800000\n"
                                     "MOV R1, 0x3f000000\n"
                                     "MOV R2, 0x3f400000\n"
                                     "MOV R3, 0x3f800000\n"
                                     "EXIT\n";

TEST_CASE(additive_blending_and_a_depth_only_draw)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g, quarter_program, 0, 0, 1, 0);
   uint64_t rt = hwt_alloc_scattered(&g.h.t, W * H * 16),
            ds = hwt_alloc_scattered(&g.h.t, W * H * 4);
   struct ref_tri t = {{2, 60, 9}, {3, 12, 44}, 0.25f, 0};
   for (unsigned i = 0; i < 6; i++)
      gtu_vertex(&g, i, W, H, t.x[i % 3], t.y[i % 3], 0.25f, 1.0f, NULL);
   /* The triangle twice with ONE + ONE: every covered pixel gets twice
    * the color; rop.blends counts each blended sample. */
   gtu_set(&g, PPU_GFX_BLEND(0),
           PPU_GFX_BLEND_EQUATION(PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_OP_ADD,
                                  PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_ONE, PPU_GFX_BLEND_OP_ADD));
   gtu_set(&g, PPU_GFX_BLEND(0) + 1, 0xf1);
   /* Both draws ask for PIXEL_ORDER RELAXED: only the depth-only one is
    * order-independent (gfx.relaxed_draws), and both give the ordered
    * result. */
   gtu_set(&g, PPU_GFX_PIXEL_ORDER, PPU_GFX_PIXEL_ORDER_RELAXED);
   uint64_t relaxed = hwt_counter(&g.h.t, PPU_COUNTER_GFX_RELAXED_DRAWS);
   uint64_t blends = hwt_counter(&g.h.t, PPU_COUNTER_ROP_BLENDS);
   float *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 6);
   CHECK_EQ_U64(hwt_counter(&g.h.t, PPU_COUNTER_GFX_RELAXED_DRAWS), relaxed);
   REQUIRE(got);
   unsigned covered = 0, bad = 0;
   for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++) {
         bool in = ref_covers(&t, x + 0.5, y + 0.5);
         const float *o = &got[(y * W + x) * 4];
         covered += in;
         bad += in ? !(o[0] == 0.5f && o[1] == 1.0f && o[2] == 1.5f && o[3] == 2.0f)
                   : !(o[0] == 0.0f && o[3] == 0.0f);
      }
   CHECK(bad == 0);
   CHECK_EQ_U64(hwt_counter(&g.h.t, PPU_COUNTER_ROP_BLENDS) - blends, 2 * covered);
   free(got);

   /* No fragment program: ZROP alone writes the depth target. */
   gtu_clear_depth(&g, ds, W * H);
   gtu_common_state(&g, W, H, vp, 0);
   gtu_depth_less(&g, ds, W, H);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   struct ppu_fault f;
   REQUIRE(gtu_submit(&g, &f));
   CHECK_EQ_U64(hwt_counter(&g.h.t, PPU_COUNTER_GFX_RELAXED_DRAWS), relaxed + 1);
   float *z = malloc(W * H * 4);
   hwt_read(&g.h.t.mem, g.h.t.pd, ds, z, W * H * 4);
   bad = 0;
   for (unsigned i = 0; i < W * H; i++)
      bad += z[i] != (ref_covers(&t, i % W + 0.5, i / W + 0.5) ? 0.25f : 1.0f);
   CHECK(bad == 0);
   free(z);
   gtu_finish(&g);
}

/* A scattered target whose texels could straddle pages (a VA not aligned
 * to its 16-byte texels) is staged and written back: the same pixels, and
 * the bytes before it untouched. */
TEST_CASE(a_target_straddling_pages_is_staged)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g, quarter_program, 0, 0, 1, 0);
   uint64_t mem = hwt_alloc_scattered(&g.h.t, W * H * 16 + 4096);
   uint32_t guard = 0xdeadbeef;
   hwt_write(&g.h.t.mem, g.h.t.pd, mem, &guard, 4);
   struct ref_tri t = {{2, 60, 9}, {3, 12, 44}, 0.25f, 0};
   for (unsigned i = 0; i < 3; i++)
      gtu_vertex(&g, i, W, H, t.x[i], t.y[i], 0.25f, 1.0f, NULL);
   float *got = draw_and_read(&g, vp, fp, mem + 4, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 3);
   REQUIRE(got);
   unsigned bad = 0;
   for (unsigned i = 0; i < W * H; i++) {
      bool in = ref_covers(&t, i % W + 0.5, i / W + 0.5);
      bad += got[i * 4 + 1] != (in ? 0.5f : 0.0f);
   }
   CHECK(bad == 0);
   hwt_read(&g.h.t.mem, g.h.t.pd, mem, &guard, 4);
   CHECK(guard == 0xdeadbeef);
   free(got);
   gtu_finish(&g);
}

/* Dual-source blending: R4..R7 (target 1's registers) hold the second
 * source; color = src * SRC1_COLOR, alpha = src * SRC1_ALPHA. */
TEST_CASE(dual_source_blending_takes_the_second_source_from_r4)
{
   struct gtu g;
   uint64_t vp;
   REQUIRE(begin(&g, &vp));
   uint64_t fp = gtu_program(&g,
                             "MOV R4, 0x3f000000\nMOV R5, 0x3e800000\n"
                             "MOV R6, 0x3f000000\nMOV R7, 0x3f000000\n"
                             "MOV R0, 0x3e800000\nMOV R1, 0x3f000000\n"
                             "MOV R2, 0x3f400000\nMOV R3, 0x3f800000\nEXIT\n",
                             PPU_GFX_PROGRAM_DUAL_SOURCE, 0, 1, 0);
   uint64_t rt = hwt_alloc_scattered(&g.h.t, W * H * 16);
   struct ref_tri t = {{2, 60, 9}, {3, 12, 44}, 0.25f, 0};
   for (unsigned i = 0; i < 3; i++)
      gtu_vertex(&g, i, W, H, t.x[i], t.y[i], 0.25f, 1.0f, NULL);
   gtu_set(&g, PPU_GFX_BLEND(0),
           PPU_GFX_BLEND_EQUATION(PPU_GFX_BLEND_SRC1_COLOR, PPU_GFX_BLEND_ZERO,
                                  PPU_GFX_BLEND_OP_ADD, PPU_GFX_BLEND_SRC1_ALPHA,
                                  PPU_GFX_BLEND_ZERO, PPU_GFX_BLEND_OP_ADD));
   gtu_set(&g, PPU_GFX_BLEND(0) + 1, 0xf1);
   float *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 3);
   REQUIRE(got);
   unsigned bad = 0, covered = 0;
   for (unsigned i = 0; i < W * H; i++) {
      if (!ref_covers(&t, i % W + 0.5, i / W + 0.5))
         continue;
      covered++;
      const float *o = &got[i * 4];
      bad += !(o[0] == 0.125f && o[1] == 0.125f && o[2] == 0.375f && o[3] == 0.5f);
   }
   CHECK(covered > 100);
   CHECK(bad == 0);
   free(got);
   gtu_finish(&g);
}

/* The viewport index of the provoking vertex picks the viewport; polygon
 * mode LINE draws the edges only. */
static const char *viewport1_vertex_program = "MOV R28, 1\n"
                                              "ST.GLOBAL.U32 [R2+24], R28\n" GTU_VERTEX_PROGRAM;

TEST_CASE(viewport_index_and_polygon_mode_line)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp1 = gtu_program(&g, viewport1_vertex_program, 0, 2, 0, 0), vp, fp;
   id_programs(&g, &vp, &fp);
   uint64_t rt = u32_target(&g);
   /* A full-target quad in NDC, drawn through viewport 1 = the top-left
    * 16x8 pixels. */
   const double x[6] = {0, W, 0, W, W, 0}, y[6] = {0, 0, H, 0, H, H};
   for (unsigned i = 0; i < 6; i++)
      gtu_vertex(&g, i, W, H, x[i], y[i], 0.5f, 1.0f, NULL);
   uint32_t v1[8] = {gtu_f(8.0f), gtu_f(4.0f), gtu_f(1.0f), gtu_f(8.0f),
                     gtu_f(4.0f), gtu_f(0.0f), gtu_f(0.0f), gtu_f(1.0f)};
   hwt_pb_method(g.pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, PPU_GFX_VIEWPORT(1), 8, v1);
   uint32_t *got = draw_and_read(&g, vp1, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 6);
   REQUIRE(got);
   unsigned bad = 0;
   for (unsigned i = 0; i < W * H; i++)
      bad += (got[i] != 0) != (i % W < 16 && i / W < 8);
   CHECK(bad == 0);
   free(got);

   /* Polygon mode LINE: a big triangle's interior stays empty. */
   uint8_t *zero = calloc(W * H, 4);
   hwt_write(&g.h.t.mem, g.h.t.pd, rt, zero, W * H * 4);
   free(zero);
   gtu_vertex(&g, 0, W, H, 4.5, 4.5, 0.5f, 1.0f, NULL);
   gtu_vertex(&g, 1, W, H, 60.5, 4.5, 0.5f, 1.0f, NULL);
   gtu_vertex(&g, 2, W, H, 4.5, 44.5, 0.5f, 1.0f, NULL);
   gtu_set(&g, PPU_GFX_POLYGON_MODE, 1);
   got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 3);
   REQUIRE(got);
   CHECK(got[4 * W + 30] == 1);  /* on the top edge */
   CHECK(got[20 * W + 4] == 1);  /* on the left edge */
   CHECK(got[15 * W + 15] == 0); /* inside */
   free(got);
   gtu_finish(&g);
}

/* The provoking vertex's layer word picks the targets' layer (LAYER +
 * it); at or beyond LAYER_COUNT the primitive is dropped. */
static const char *layer1_vertex_program = "MOV R28, 1\n"
                                           "ST.GLOBAL.U32 [R2+20], R28\n" GTU_VERTEX_PROGRAM;

TEST_CASE(the_layer_word_picks_the_target_layer_below_layer_count)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp1 = gtu_program(&g, layer1_vertex_program, 0, 2, 0, 0), vp, fp;
   id_programs(&g, &vp, &fp);
   const uint32_t layer_bytes = W * H * 4;
   uint64_t rt = hwt_alloc_scattered(&g.h.t, 2 * layer_bytes);
   const double x[6] = {0, W, 0, W, W, 0}, y[6] = {0, 0, H, 0, H, H};
   for (unsigned i = 0; i < 6; i++)
      gtu_vertex(&g, i, W, H, x[i], y[i], 0.5f, 1.0f, NULL);
   uint32_t *got = malloc(2 * layer_bytes);
   REQUIRE(got);
   for (uint32_t count = 2; count >= 1; count--) {
      gtu_common_state(&g, W, H, vp1, fp);
      gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
      gtu_set(&g, PPU_GFX_COLOR_TARGET(0) + PPU_GFX_TARGET_LAYER_STRIDE, layer_bytes >> 9);
      gtu_set(&g, PPU_GFX_LAYER_COUNT, count);
      gtu_draw(&g, 0, 6, 0, 1, 0, 0);
      struct ppu_fault f;
      if (!gtu_submit(&g, &f)) {
         test_fail(__FILE__, __LINE__, "the draw faulted: %s", f.detail);
         break;
      }
      hwt_read(&g.h.t.mem, g.h.t.pd, rt, got, 2 * layer_bytes);
      unsigned layer0 = 0, layer1 = 0;
      for (unsigned i = 0; i < W * H; i++) {
         layer0 += got[i] != 0;
         layer1 += got[W * H + i] != 0;
      }
      CHECK_MSG(layer0 == 0 && layer1 == (count == 2 ? W * H : 0),
                "LAYER_COUNT %u: %u pixels on layer 0, %u on layer 1", count, layer0, layer1);
      memset(got, 0, 2 * layer_bytes);
      hwt_write(&g.h.t.mem, g.h.t.pd, rt, got, 2 * layer_bytes);
   }
   (void)vp;
   free(got);
   gtu_finish(&g);
}

/* Index buffers: unaligned is BAD_METHOD_DATA, unmapped an MMU fault. */
TEST_CASE(bad_index_buffers_fault_the_channel)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t vp, fp;
   id_programs(&g, &vp, &fp);
   uint64_t rt = u32_target(&g), ib = hwt_alloc_mapped(&g.h.t, 4096, true);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_set64(&g, PPU_GFX_INDEX_ADDR_LO, ib + 2);
   gtu_set(&g, PPU_GFX_INDEX_SIZE, 4);
   gtu_set(&g, PPU_GFX_INDEX_LIMIT, 3);
   gtu_draw(&g, 0, 3, 0, 1, 0, PPU_GFX_DRAW_FLAG_INDEXED);
   struct ppu_fault f;
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_BAD_METHOD_DATA && strstr(f.detail, "aligned") != NULL);

   REQUIRE(hwt_channel_restart(&g.h.c, "graphics"));
   uint64_t hole = hwt_alloc_va(&g.h.t, 4096);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_set64(&g, PPU_GFX_INDEX_ADDR_LO, hole);
   gtu_set(&g, PPU_GFX_INDEX_LIMIT, 3); /* a new channel's state: LIMIT 0 reads no memory */
   gtu_draw(&g, 0, 3, 0, 1, 0, PPU_GFX_DRAW_FLAG_INDEXED);
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED && f.engine == PPU_ENGINE_GRAPHICS);
   CHECK(f.address == hole);
   gtu_finish(&g);
}

/* A vertex program that loads from an unmapped address faults the channel
 * with the program's PC, reported by the graphics engine. */
TEST_CASE(a_faulting_vertex_program_faults_the_channel)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   uint64_t fp, unused;
   id_programs(&g, &unused, &fp);
   uint64_t vp =
       gtu_program(&g, "MOV R8, 0\nMOV R9, 0x7000\nLD.GLOBAL.U32 R10, [R8]\nEXIT\n", 0, 0, 0, 0);
   uint64_t rt = u32_target(&g);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
   gtu_draw(&g, 0, 3, 0, 1, 0, 0);
   struct ppu_fault f;
   CHECK(!gtu_submit(&g, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED);
   CHECK(f.engine == PPU_ENGINE_GRAPHICS);
   CHECK(f.pc != 0);
   CHECK(f.method == PPU_GFX_DRAW);
   gtu_finish(&g);
}

/* A compute grid on another channel holds the SMs for a while: the draw
 * waits for it (DRAW stalls), then draws; both results are right. */
TEST_CASE(a_draw_waits_for_a_compute_grid_on_another_channel)
{
   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   struct hwt_channel c2;
   REQUIRE(hwt_channel_init(&c2, &g.h.t, "compute"));
   hwc_cb_write32(&g.h, 0x28, 20000);
   uint64_t prog = hwc_program(&g.h, "S2R R0, SR_TID_FLAT\n"
                                     "LDC R9, c[0][RZ+0x28]\n"
                                     "MOV R8, 0\n"
                                     "loop:\n"
                                     "IADD.U32 R8, R8, 1\n"
                                     "ISETP.LT.U32 P0, R8, R9, PT\n"
                                     "@P0 BRA loop\n"
                                     "IADD.U32 R0, R0, R8\n" HWC_STORE_LANE("R0") "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&g.h, &q, prog);
   q.grid_size[0] = 8;
   uint64_t qva = hwt_alloc_mapped(&g.h.t, 4096, false);
   hwt_write(&g.h.t.mem, g.h.t.pd, qva, &q, sizeof(q));
   struct hwt_pb *pb = malloc(sizeof(*pb));
   hwt_pb_reset(pb);
   hwt_pb_set64(pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_QMD_ADDR_LO, qva);
   hwt_pb_immd(pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_LAUNCH, 0);
   hwt_submit(&c2, pb);
   free(pb);

   uint64_t vp, fp, rt = u32_target(&g);
   id_programs(&g, &vp, &fp);
   struct ref_tri t[8];
   for (unsigned i = 0; i < 8; i++) {
      for (unsigned k = 0; k < 3; k++) {
         t[i].x[k] = grid8(0, W);
         t[i].y[k] = grid8(0, H);
         gtu_vertex(&g, 3 * i + k, W, H, t[i].x[k], t[i].y[k], 0.5f, 1.0f, NULL);
      }
      t[i].value = i + 1;
   }
   uint32_t *got = draw_and_read(&g, vp, fp, rt, PPU_TEX_FORMAT_R32_UINT, 4, 24);
   REQUIRE(got);
   uint32_t expect[W * H] = {0};
   ref_draw(expect, NULL, t, 8);
   CHECK(memcmp(got, expect, sizeof(expect)) == 0);
   free(got);
   REQUIRE(hwt_sync(&c2, 60000));
   for (unsigned i = 0; i < 8 * 32; i++)
      CHECK_EQ_U64(hwc_out32(&g.h, i), i % 32 + 20000);
   /* The SMs the draw used run the next grid as if no draw had been. */
   REQUIRE(hwc_run_simple(
       &g.h, "S2R R0, SR_TID_FLAT\nIADD.U32 R0, R0, 7\n" HWC_STORE_LANE("R0") "EXIT\n", 64));
   for (unsigned i = 0; i < 64; i++)
      CHECK_EQ_U64(hwc_out32(&g.h, i), i + 7);
   hwt_channel_finish(&c2);
   gtu_finish(&g);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
