/* The TTU's intersection predictor (docs/ttu.md) changes no result of
 * ao.comp: per pixel, the number of AO rays that escaped is the same with
 * the predictor off and on, on cornell_tiny and teapot. AO rays are
 * TERMINATE_ON_FIRST_HIT | OPAQUE, the rays the predictor serves; primary
 * rays (closest hit) never use it. The AO workload must also give the
 * predictor something to do (rays predicted and verified), and the counters
 * must add up: the node fetches saved against the predictor-off run are
 * equation 1 (nodes_skipped - extra_node_fetches) exactly: Go Up Level
 * (default 3, at most 7) reads the ancestor stored in the node already
 * fetched for the hit, so learning fetches no node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_model.h"
#include "test_harness.h"

struct ao_run {
   uint64_t counters[PPU_COUNTER_COUNT];
   uint32_t *result;
};

static bool run_ao(const struct obj_mesh *mesh, const struct scene_camera *cam, uint32_t size,
                   uint32_t spp, const struct ppu_ttu_predictor_config *predictor,
                   struct ao_run *out)
{
   struct rt_model m;
   out->result = malloc((size_t)size * size * 4);
   bool ok = out->result && rt_model_init_predictor(&m, 0, 0, predictor);
   if (ok) {
      ok = rt_model_load(&m, mesh);
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, rt_mesh_diagonal(mesh), size, size, spp, &pc);
      ok = ok && rt_ao_run(&m, &pc, 0, out->result);
      ppu_gpu_read_counters(m.ctu.h.t.gpu, out->counters);
      rt_model_finish(&m);
   }
   return ok;
}

/* require_predictions: the scene occludes enough AO rays (cornell_tiny: a
 * quarter) that even the small sanitizer-sized run predicts and verifies
 * some; the teapot's few occluded rays may give none there. */
static void check_scene(const char *name, uint32_t size, uint32_t spp, bool require_predictions)
{
   const struct scene_camera *cam = scene_catalog_find(name);
   struct obj_mesh mesh;
   char err[256];
   REQUIRE(cam);
   if (!rt_scene_read(cam, &mesh, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return;
   }
   struct ppu_ttu_predictor_config on = {.enabled = true};
   struct ao_run off_run = {0}, on_run = {0};
   if (run_ao(&mesh, cam, size, spp, NULL, &off_run) &&
       run_ao(&mesh, cam, size, spp, &on, &on_run)) {
      uint32_t differ = 0, first = 0;
      for (uint32_t i = 0; i < size * size; i++)
         if (off_run.result[i] != on_run.result[i] && differ++ == 0)
            first = i;
      CHECK_MSG(differ == 0, "%s: %u pixels differ, first %u: %u off, %u on", name, differ, first,
                off_run.result[first], on_run.result[first]);
      const uint64_t *c = on_run.counters;
      struct rt_ao_stats s;
      rt_ao_stats(on_run.result, size, size, spp, &s);
      uint64_t off_fetches = off_run.counters[PPU_COUNTER_TTU_NODE_FETCHES];
      uint64_t on_fetches = c[PPU_COUNTER_TTU_NODE_FETCHES];
      printf("  %s %ux%u %u spp: %llu AO rays, predicted %llu, verified %llu, mispredicted %llu, "
             "node fetches %llu off, %llu on\n",
             name, size, size, spp, (unsigned long long)s.ao_rays,
             (unsigned long long)c[PPU_COUNTER_TTU_PREDICTOR_PREDICTED],
             (unsigned long long)c[PPU_COUNTER_TTU_PREDICTOR_VERIFIED],
             (unsigned long long)c[PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED],
             (unsigned long long)off_fetches, (unsigned long long)on_fetches);
      CHECK_EQ_U64(c[PPU_COUNTER_TTU_PREDICTOR_LOOKUPS], s.ao_rays);
      CHECK_EQ_U64(off_run.counters[PPU_COUNTER_TTU_PREDICTOR_LOOKUPS], 0);
      if (require_predictions)
         CHECK(c[PPU_COUNTER_TTU_PREDICTOR_PREDICTED] > 0 &&
               c[PPU_COUNTER_TTU_PREDICTOR_VERIFIED] > 0);
      CHECK_EQ_U64(c[PPU_COUNTER_TTU_PREDICTOR_PREDICTED],
                   c[PPU_COUNTER_TTU_PREDICTOR_VERIFIED] +
                       c[PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED]);
      /* on = off - (skipped - extra): no fetch for Go Up Level. */
      int64_t learning = (int64_t)on_fetches - (int64_t)off_fetches +
                         (int64_t)c[PPU_COUNTER_TTU_PREDICTOR_NODES_SKIPPED] -
                         (int64_t)c[PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES];
      CHECK(c[PPU_COUNTER_TTU_PREDICTOR_UPDATES] > 0);
      CHECK_MSG(learning == 0, "%s: %lld node fetches unaccounted for (%llu updates)", name,
                (long long)learning, (unsigned long long)c[PPU_COUNTER_TTU_PREDICTOR_UPDATES]);
   }
   free(off_run.result);
   free(on_run.result);
   obj_mesh_free(&mesh);
}

TEST_CASE(ao_results_are_identical_with_the_intersection_predictor_on_and_off)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("SKIP: no scenes directory %s\n", dir);
      return;
   }
   uint32_t size = rt_small_run() ? 32 : 64, spp = 4;
   check_scene("cornell_tiny", size, spp, true);
   check_scene("teapot", size, spp, false);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
