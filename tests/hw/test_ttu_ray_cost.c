/* The QMD's ray cost buffer (ppu/qmd.h, docs/profiler.md): each invocation's
 * word receives exactly the BVH nodes its TTU instructions fetched, so the
 * buffer sums to ttu.node_fetches; invocations outside width x height and
 * the words between width and pitch are untouched; the writes change no
 * counter; and a malformed buffer description faults the LAUNCH. */
#include <stdio.h>

#include "ttu_test_scene.h"

#define RAYS 256u
#define PITCH 300u

static struct hwc h;
static struct ts_blas blas;
static struct ts_scene scene;
static struct ts_ray rays[RAYS];

/* One identity instance of 64 random triangles; rays from z = -5 along +z
 * over the unit square, so some hit and some miss. */
static void make_scene(void)
{
   ts_random_triangles(&h, &blas, 64, 7, true);
   ts_one_instance_scene(&h, &scene, &blas);
   uint64_t seed = 9;
   for (unsigned i = 0; i < RAYS; i++) {
      struct ts_ray *r = &rays[i];
      memset(r, 0, sizeof(*r));
      r->tlas = scene.tlas;
      r->cull_mask = 0xff;
      r->org[0] = ts_rand(&seed, -1.5f, 1.5f);
      r->org[1] = ts_rand(&seed, -1.5f, 1.5f);
      r->org[2] = -5;
      r->dir[2] = 1;
      r->tmax = 1e30f;
   }
}

/* ts_run with the QMD's ray cost fields set to rc; counters before and
 * after go to c0, c1. */
static bool run(const struct ppu_qmd_ray_cost *rc, uint64_t *c0, uint64_t *c1,
                struct ppu_fault *fault)
{
   uint64_t rays_va = hwt_alloc_mapped(&h.t, sizeof(rays), false);
   hwt_write(&h.t.mem, h.t.pd, rays_va, rays, sizeof(rays));
   hwt_write(&h.t.mem, h.t.pd, h.cb_va + 8, &rays_va, 8);
   hwc_cb_write32(&h, 16, 1);
   hwc_cb_write32(&h, 20, 1);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, hwc_program(&h, ts_program));
   q.local_memory_size = PPU_RAY_QUERY_BYTES;
   q.grid_size[0] = RAYS / 32;
   q.ray_cost = *rc;
   ppu_gpu_read_counters(h.t.gpu, c0);
   bool ok = hwc_launch(&h, &q, 0, fault);
   ppu_gpu_read_counters(h.t.gpu, c1);
   return ok;
}

/* One host worker: warps run in the same order every time, so every
 * counter, caches and TLBs included, repeats exactly between runs. */
static bool init_deterministic(void)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.host_worker_threads = 1;
   return hwc_init(&h, &cfg);
}

TEST_CASE(ray_cost_words_sum_to_node_fetches_and_stay_inside_the_plane)
{
   REQUIRE(init_deterministic());
   make_scene();
   uint64_t plane = hwt_alloc_mapped(&h.t, PITCH * 2 * 4, true);
   static uint64_t c0[PPU_COUNTER_COUNT], c1[PPU_COUNTER_COUNT];
   static uint64_t off0[PPU_COUNTER_COUNT], off1[PPU_COUNTER_COUNT];
   struct ppu_fault f;
   const struct ppu_qmd_ray_cost none = {0};
   REQUIRE(run(&none, off0, off1, &f)); /* warms the TLBs for the runs compared */
   REQUIRE(run(&none, off0, off1, &f));

   /* The whole grid (256 x 1 invocations) in row 0; row 1 untouched. */
   const struct ppu_qmd_ray_cost whole = {.va = plane, .pitch = PITCH, .width = RAYS, .height = 2};
   REQUIRE(run(&whole, c0, c1, &f));
   uint32_t words[PITCH * 2];
   hwt_read(&h.t.mem, h.t.pd, plane, words, sizeof(words));
   uint64_t sum = 0;
   for (unsigned i = 0; i < RAYS; i++) {
      CHECK_MSG(words[i] >= 1, "invocation %u fetched at least the root: %u", i, words[i]);
      sum += words[i];
   }
   for (unsigned i = RAYS; i < PITCH * 2; i++)
      CHECK_MSG(words[i] == 0, "word %u outside the grid: %u", i, words[i]);
   CHECK_EQ_U64(sum, c1[PPU_COUNTER_TTU_NODE_FETCHES] - c0[PPU_COUNTER_TTU_NODE_FETCHES]);
   /* A side channel: every counter moved exactly as without the plane. */
   for (unsigned i = 0; i < PPU_COUNTER_COUNT; i++)
      CHECK_MSG(c1[i] - c0[i] == off1[i] - off0[i], "%s: %llu with the plane, %llu without",
                ppu_counter_name((enum ppu_counter)i), (unsigned long long)(c1[i] - c0[i]),
                (unsigned long long)(off1[i] - off0[i]));

   /* width 100: invocations 100.. add nothing; the first 100 add again. */
   const struct ppu_qmd_ray_cost clipped = {.va = plane, .pitch = PITCH, .width = 100, .height = 1};
   REQUIRE(run(&clipped, c0, c1, &f));
   uint32_t again[PITCH * 2];
   hwt_read(&h.t.mem, h.t.pd, plane, again, sizeof(again));
   for (unsigned i = 0; i < RAYS; i++)
      CHECK_EQ_U64(again[i], i < 100 ? 2 * words[i] : words[i]);
   hwc_finish(&h);
}

TEST_CASE(malformed_ray_cost_fields_fault_the_launch)
{
   REQUIRE(hwc_init(&h, NULL));
   make_scene();
   uint64_t plane = hwt_alloc_mapped(&h.t, 4096, true);
   const struct ppu_qmd_ray_cost bad[] = {
       {.va = plane, .pitch = 8, .width = 0, .height = 1},     /* empty */
       {.va = plane, .pitch = 4, .width = 8, .height = 1},     /* pitch below width */
       {.va = plane + 2, .pitch = 8, .width = 8, .height = 1}, /* misaligned */
       {.va = 0, .pitch = 8, .width = 0, .height = 0},         /* off, with a pitch */
       {.va = plane, .pitch = 8, .width = 8, .height = 1, .reserved = 1},
   };
   static uint64_t c0[PPU_COUNTER_COUNT], c1[PPU_COUNTER_COUNT];
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      struct ppu_fault f;
      memset(&f, 0, sizeof(f));
      CHECK_MSG(!run(&bad[i], c0, c1, &f) && f.kind == PPU_FAULT_BAD_METHOD_DATA, "case %u: %s", i,
                f.detail);
      CHECK_EQ_U64(c1[PPU_COUNTER_TTU_RAYS], c0[PPU_COUNTER_TTU_RAYS]);
      REQUIRE(hwt_channel_restart(&h.c, "compute"));
   }
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
