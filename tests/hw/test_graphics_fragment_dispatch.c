/* Fragment dispatch (docs/graphics-hw.md "Fragment dispatch"): a draw's
 * fragment warps are queued, shaded on several SMs by the host workers at
 * once, and resolved through ZROP and CROP in primitive order. Many
 * overlapping triangles (last one wins, order-dependent alpha blending,
 * discard with depth LESS and hi-Z) must give the brute-force reference
 * and the same bytes and counters for 1, 2 and 4 host workers, and the
 * same bytes as a one-SM chip, which shades everything on one SM. */
#include <math.h>
#include <stdio.h>

#include "graphics_test_util.h"
#include "raster_test_util.h"

#define W 64
#define H 48
#define N 240 /* triangles: several vertex batches, many warps each */

struct tri {
   double x[3], y[3];
   float z;
};

static struct tri scene[N];

/* Triangles on the 1/8 pixel grid (every conversion on the way is exact),
 * mostly small, every fifth one large, at depths in (0, 1). */
static void make_scene(void)
{
   static bool made;
   if (made)
      return;
   made = true;
   for (unsigned i = 0; i < N; i++) {
      double cx = rt_uniform(-4, W + 4), cy = rt_uniform(-4, H + 4), r = i % 5 ? 9 : 34;
      for (unsigned k = 0; k < 3; k++) {
         scene[i].x[k] = round(rt_uniform(cx - r, cx + r) * 8.0) / 8.0;
         scene[i].y[k] = round(rt_uniform(cy - r, cy + r) * 8.0) / 8.0;
      }
      scene[i].z = (float)rt_uniform(0.05, 0.95);
   }
}

static bool covers(const struct tri *t, double sx, double sy)
{
   return rt_reference_covers_window(t->x, t->y, sx, sy);
}

/* Every program reads the primitive record: slot 1 (flat) holds the
 * provoking vertex's index (GTU_VERTEX_PROGRAM), plane c of component 2 at
 * 48 + 12 (4 + 2) + 8. The programs declare 16 slots, so few primitive
 * records fit in the test's scratch and queued work must be shaded before
 * a slot is reused. */
#define LOAD_VERTEX_INDEX "LD.GLOBAL.U32 R8, [R2+128]\n"
#define FRAGMENT_SLOTS 16

/* Vertex index + 1 (R32_UINT): the last covering triangle wins. */
static const char *id_program = LOAD_VERTEX_INDEX "IADD.U32 R0, R8, 1\n"
                                                  "EXIT\n";
/* A color of the primitive id at alpha 0.625: SRC_ALPHA, ONE_MINUS_SRC_ALPHA
 * blending gives a different result for any other order. */
static const char *blend_program = LOAD_VERTEX_INDEX "CVT.RN.F32.U32 R8, R8\n"
                                                     "FMUL.F32 R0, R8, 0.004f\n"
                                                     "FADD.F32 R9, RZ, 1.0f\n"
                                                     "FSUB.F32 R1, R9, R0\n"
                                                     "FMUL.F32 R2, R0, R0\n"
                                                     "MOV R3, 0x3f200000\n"
                                                     "EXIT\n";
/* Discards the triangles whose provoking vertex index is 3 mod 8 (clears
 * R34, the coverage register) and writes the index: late tests, so ZROP
 * and the hi-Z refresh wait for the queued warps; the other triangles
 * cover whole tiles, so hi-Z culls later ones. */
static const char *discard_program = LOAD_VERTEX_INDEX "AND.U32 R9, R8, 7\n"
                                                       "ISETP.EQ.U32 P0, R9, 3, PT\n"
                                                       "@P0 MOV R34, 0\n"
                                                       "IADD.U32 R0, R8, 1\n"
                                                       "EXIT\n";

/* What one chip drew, and its counters after the three draws. */
struct result {
   uint32_t id[W * H];
   float blended[W * H * 4];
   uint32_t discard_id[W * H];
   float depth[W * H];
   uint64_t counters[PPU_COUNTER_COUNT];
};

static uint64_t fragment_program(struct gtu *g, const char *src, uint32_t flags)
{
   return gtu_program(g, src, flags, FRAGMENT_SLOTS, 1, GTU_INTERP_SLOT1_FLAT);
}

static bool draw(struct gtu *g, uint64_t fp, uint64_t rt, unsigned format, unsigned bytes)
{
   uint64_t vp = gtu_program(g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   gtu_common_state(g, W, H, vp, fp);
   gtu_target(g, PPU_GFX_COLOR_TARGET(0), rt, format, W, H, W * bytes);
   gtu_draw(g, 0, 3 * N, 0, 1, 0, 0);
   struct ppu_fault f;
   if (!gtu_submit(g, &f)) {
      test_fail(__FILE__, __LINE__, "the draw faulted: %s", f.detail);
      return false;
   }
   return true;
}

/* The scene three times on a chip of `sms` SMs and `workers` host threads
 * (in timing mode: the raster engine shades each warp batch at once). */
static bool render_in(enum ppu_gpu_mode mode, unsigned sms, unsigned workers, struct result *r)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.gpc_count = 1;
   cfg.tpcs_per_gpc = sms;
   cfg.sms_per_tpc = 1;
   cfg.host_worker_threads = workers;
   cfg.mode = mode;
   cfg.timing_progress = false;
   struct gtu g;
   if (!gtu_init(&g, &cfg))
      return false;
   /* The least scratch the draws accept: 5 primitive records. */
   g.scratch_size =
       (32 * PPU_GFX_VERTEX_STRIDE(2) + PPU_GFX_PRIMITIVE_STRIDE(FRAGMENT_SLOTS) + 255) & ~255u;
   for (unsigned i = 0; i < N; i++)
      for (unsigned k = 0; k < 3; k++)
         gtu_vertex(&g, 3 * i + k, W, H, scene[i].x[k], scene[i].y[k], scene[i].z, 1.0f, NULL);
   uint64_t id_rt = hwt_alloc_scattered(&g.h.t, W * H * 4);
   uint64_t blend_rt = hwt_alloc_scattered(&g.h.t, W * H * 16);
   uint64_t discard_rt = hwt_alloc_scattered(&g.h.t, W * H * 4);
   uint64_t ds = hwt_alloc_scattered(&g.h.t, W * H * 4);
   bool ok = draw(&g, fragment_program(&g, id_program, 0), id_rt, PPU_TEX_FORMAT_R32_UINT, 4);
   gtu_set(&g, PPU_GFX_BLEND(0),
           PPU_GFX_BLEND_EQUATION(PPU_GFX_BLEND_SRC_ALPHA, PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA,
                                  PPU_GFX_BLEND_OP_ADD, PPU_GFX_BLEND_ONE,
                                  PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA, PPU_GFX_BLEND_OP_ADD));
   gtu_set(&g, PPU_GFX_BLEND(0) + 1, 0xf1);
   ok = ok && draw(&g, fragment_program(&g, blend_program, 0), blend_rt,
                   PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16);
   gtu_set(&g, PPU_GFX_BLEND(0), 0);
   gtu_set(&g, PPU_GFX_BLEND(0) + 1, 0xf0);
   gtu_clear_depth(&g, ds, W * H);
   gtu_depth_less(&g, ds, W, H);
   ok = ok && draw(&g, fragment_program(&g, discard_program, PPU_GFX_PROGRAM_MAY_DISCARD),
                   discard_rt, PPU_TEX_FORMAT_R32_UINT, 4);
   hwt_read(&g.h.t.mem, g.h.t.pd, id_rt, r->id, sizeof(r->id));
   hwt_read(&g.h.t.mem, g.h.t.pd, blend_rt, r->blended, sizeof(r->blended));
   hwt_read(&g.h.t.mem, g.h.t.pd, discard_rt, r->discard_id, sizeof(r->discard_id));
   hwt_read(&g.h.t.mem, g.h.t.pd, ds, r->depth, sizeof(r->depth));
   ppu_gpu_read_counters(g.h.t.gpu, r->counters);
   gtu_finish(&g);
   return ok;
}

static bool render(unsigned sms, unsigned workers, struct result *r)
{
   return render_in(PPU_GPU_MODE_FUNCTIONAL, sms, workers, r);
}

/* The brute-force reference of the id and discard draws. */
static void reference(uint32_t *id, uint32_t *discard_id)
{
   float zbuf[W * H];
   for (unsigned p = 0; p < W * H; p++) {
      id[p] = discard_id[p] = 0;
      zbuf[p] = 1.0f;
   }
   for (unsigned i = 0; i < N; i++)
      for (unsigned y = 0; y < H; y++)
         for (unsigned x = 0; x < W; x++) {
            if (!covers(&scene[i], x + 0.5, y + 0.5))
               continue;
            id[y * W + x] = 3 * i + 1; /* the first vertex provokes */
            if ((3 * i) % 8 != 3 && scene[i].z < zbuf[y * W + x]) {
               zbuf[y * W + x] = scene[i].z;
               discard_id[y * W + x] = 3 * i + 1;
            }
         }
}

static unsigned differing_pixels(const char *what, const uint32_t *got, const uint32_t *expect)
{
   unsigned bad = 0;
   for (unsigned p = 0; p < W * H; p++)
      if (got[p] != expect[p] && bad++ < 3)
         test_fail(__FILE__, __LINE__, "%s: pixel (%u, %u) is 0x%x, expected 0x%x", what, p % W,
                   p / W, got[p], expect[p]);
   return bad;
}

static struct result *results[3];

TEST_CASE(overlapping_triangles_give_the_same_bytes_and_counters_for_any_worker_count)
{
   make_scene();
   static uint32_t expect_id[W * H], expect_discard[W * H];
   reference(expect_id, expect_discard);
   static const unsigned workers[3] = {1, 2, 4};
   for (unsigned k = 0; k < 3; k++) {
      results[k] = calloc(1, sizeof(struct result));
      REQUIRE(results[k] && render(4, workers[k], results[k]));
      CHECK(differing_pixels("last triangle wins", results[k]->id, expect_id) == 0);
      CHECK(differing_pixels("discard and depth LESS", results[k]->discard_id, expect_discard) ==
            0);
   }
   for (unsigned k = 1; k < 3; k++) {
      CHECK(memcmp(results[k]->blended, results[0]->blended, sizeof(results[0]->blended)) == 0);
      CHECK(memcmp(results[k]->depth, results[0]->depth, sizeof(results[0]->depth)) == 0);
      for (unsigned c = 0; c < PPU_COUNTER_COUNT; c++)
         CHECK_MSG(results[k]->counters[c] == results[0]->counters[c],
                   "counter %u: %llu with %u workers, %llu with 1", c,
                   (unsigned long long)results[k]->counters[c], workers[k],
                   (unsigned long long)results[0]->counters[c]);
   }
   /* The scene is not trivial: it blends, and hi-Z culls tiles. */
   CHECK(results[0]->counters[PPU_COUNTER_ROP_BLENDS] > 1000);
   CHECK(results[0]->counters[PPU_COUNTER_GFX_FRAGMENT_WARPS] > 3 * N);
   CHECK(results[0]->counters[PPU_COUNTER_GFX_TILES_HIZ_CULLED] > 0);
}

/* Timing mode shades each warp batch before the raster goes on (no
 * queue): the same bytes, and the same raster and ROP counts, so hi-Z
 * sees the same ranges with the queue as without it. */
TEST_CASE(the_queue_changes_no_byte_and_no_raster_count)
{
   REQUIRE(results[0]);
   struct result *timed = calloc(1, sizeof(*timed));
   REQUIRE(timed && render_in(PPU_GPU_MODE_TIMING, 4, 1, timed));
   CHECK(memcmp(timed->id, results[0]->id, sizeof(timed->id)) == 0);
   CHECK(memcmp(timed->blended, results[0]->blended, sizeof(timed->blended)) == 0);
   CHECK(memcmp(timed->discard_id, results[0]->discard_id, sizeof(timed->discard_id)) == 0);
   CHECK(memcmp(timed->depth, results[0]->depth, sizeof(timed->depth)) == 0);
   static const enum ppu_counter same[] = {PPU_COUNTER_GFX_PRIMITIVES,
                                           PPU_COUNTER_GFX_TILES_HIZ_CULLED,
                                           PPU_COUNTER_GFX_QUADS,
                                           PPU_COUNTER_GFX_HELPER_LANES,
                                           PPU_COUNTER_GFX_SAMPLES_PASSED,
                                           PPU_COUNTER_GFX_FRAGMENT_WARPS,
                                           PPU_COUNTER_ROP_BLENDS,
                                           PPU_COUNTER_COMPUTE_WARP_INSTRUCTIONS,
                                           PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS};
   for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++)
      CHECK_MSG(timed->counters[same[i]] == results[0]->counters[same[i]],
                "counter %u: %llu in timing mode, %llu in functional mode", same[i],
                (unsigned long long)timed->counters[same[i]],
                (unsigned long long)results[0]->counters[same[i]]);
   free(timed);
}

/* A one-SM chip runs every warp on SM 0, one at a time: the serial order. */
TEST_CASE(a_one_sm_chip_draws_the_same_bytes)
{
   REQUIRE(results[0]);
   struct result *one = calloc(1, sizeof(*one));
   REQUIRE(one && render(1, 1, one));
   CHECK(memcmp(one->id, results[0]->id, sizeof(one->id)) == 0);
   CHECK(memcmp(one->blended, results[0]->blended, sizeof(one->blended)) == 0);
   CHECK(memcmp(one->discard_id, results[0]->discard_id, sizeof(one->discard_id)) == 0);
   CHECK(memcmp(one->depth, results[0]->depth, sizeof(one->depth)) == 0);
   free(one);
}

/* Fragment warps spread over every SM but the vertex SM 0: each fragment
 * SM fetches the fragment programs into its own instruction cache, so
 * each SM more adds the same number of misses (the vertex program's stay
 * on SM 0). */
TEST_CASE(fragment_warps_run_on_every_sm_but_the_vertex_sm)
{
   struct result *r = calloc(3, sizeof(*r));
   REQUIRE(r);
   for (unsigned k = 0; k < 3; k++)
      REQUIRE(render(2 + k, 2, &r[k]));
   uint64_t m[3];
   for (unsigned k = 0; k < 3; k++)
      m[k] = r[k].counters[PPU_COUNTER_COMPUTE_ICACHE_MISSES];
   CHECK_MSG(m[1] > m[0] && m[2] - m[1] == m[1] - m[0],
             "icache misses with 2, 3, 4 SMs: %llu, %llu, %llu", (unsigned long long)m[0],
             (unsigned long long)m[1], (unsigned long long)m[2]);
   for (unsigned k = 0; k < 3; k++)
      CHECK(memcmp(r[k].blended, results[0]->blended, sizeof(r[k].blended)) == 0);
   free(r);
   for (unsigned k = 0; k < 3; k++)
      free(results[k]);
}

/* Triangles from the one whose first vertex is FAULT_FROM on read the
 * unmapped FAULT_BASE + (vertex index << 16) + (tile x << 8) + (tile y <<
 * 4) of their pixel, so the fault's address names the batch (a batch is
 * one tile of one triangle) through its first lane. */
#define FAULT_FROM 300u
#define FAULT_BASE 0x8000000000ull
static const char *faulting_program = LOAD_VERTEX_INDEX "ISETP.GE.U32 P0, R8, 300, PT\n"
                                                        "SHL.U32 R10, R8, 16\n"
                                                        "AND.U32 R13, R0, 0xffff\n"
                                                        "SHR.U32 R13, R13, 3\n"
                                                        "SHL.U32 R13, R13, 8\n"
                                                        "SHR.U32 R14, R0, 19\n"
                                                        "SHL.U32 R14, R14, 4\n"
                                                        "IADD.U32 R10, R10, R13\n"
                                                        "IADD.U32 R10, R10, R14\n"
                                                        "MOV R11, 0x80\n"
                                                        "@P0 LD.GLOBAL.U32 R12, [R10]\n"
                                                        "IADD.U32 R0, R8, 1\n"
                                                        "EXIT\n";

/* The fault a one-thread, one-warp-at-a-time engine reports: the first
 * tile, in row order, of the first triangle in API order at or past
 * FAULT_FROM that covers a pixel. */
static uint64_t first_fault_address(void)
{
   for (unsigned i = 0; i < N; i++) {
      if (3 * i < FAULT_FROM)
         continue;
      for (unsigned ty = 0; ty < H / 8; ty++)
         for (unsigned tx = 0; tx < W / 8; tx++)
            for (unsigned p = 0; p < 64; p++)
               if (covers(&scene[i], 8 * tx + p % 8 + 0.5, 8 * ty + p / 8 + 0.5))
                  return FAULT_BASE + ((uint64_t)(3 * i) << 16) + (tx << 8) + (ty << 4);
   }
   return 0;
}

/* Warps of later batches may run (and fault) before the first faulting
 * one on other SMs; the draw still reports the first one in primitive
 * order, with any number of workers. */
TEST_CASE(a_faulting_fragment_program_reports_the_first_fault_in_primitive_order)
{
   make_scene();
   uint64_t expect = first_fault_address();
   REQUIRE(expect);
   for (unsigned workers = 1; workers <= 4; workers *= 2) {
      struct ppu_gpu_config cfg;
      ppu_gpu_config_default(&cfg);
      cfg.vram_size = 256ull << 20;
      cfg.max_channels = 16;
      cfg.host_worker_threads = workers;
      struct gtu g;
      REQUIRE(gtu_init(&g, &cfg));
      for (unsigned i = 0; i < N; i++)
         for (unsigned k = 0; k < 3; k++)
            gtu_vertex(&g, 3 * i + k, W, H, scene[i].x[k], scene[i].y[k], scene[i].z, 1.0f, NULL);
      uint64_t rt = hwt_alloc_scattered(&g.h.t, W * H * 4);
      uint64_t vp = gtu_program(&g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
      gtu_common_state(&g, W, H, vp, fragment_program(&g, faulting_program, 0));
      gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32_UINT, W, H, W * 4);
      gtu_draw(&g, 0, 3 * N, 0, 1, 0, 0);
      struct ppu_fault f;
      CHECK(!gtu_submit(&g, &f));
      CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_UNMAPPED);
      CHECK_MSG(f.address == expect, "%u workers: fault at 0x%llx, expected 0x%llx", workers,
                (unsigned long long)f.address, (unsigned long long)expect);
      gtu_finish(&g);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
