/* ao.comp's per-pixel result and every ttu.* and mmu.* counter of the run
 * are pinned to the values the scalar TTU model gave before it was made
 * faster (issue 21): the SIMD box datapath, the node decode and the object
 * copies must change the host time of a ray and nothing else. The image
 * is pinned by a 64-bit FNV-1a hash of the result buffer, the counters one
 * by one so that a failure names what moved.
 *
 * The scenes are small enough for the sanitizer build too, so the same pins
 * hold there: sibenik (a real scene, 75K triangles, deep trees), teapot
 * with the intersection predictor on (its predicted walks expand subtrees).
 * One host worker thread: with more, which SM runs which workgroup depends
 * on the threads' timing, and the L0, TLB and predictor counters with it
 * (the image does not change).
 *
 * VKPPU_PRINT_PINS=1 prints the table in the form below, for a deliberate
 * change of the model's behaviour (say why in the commit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_model.h"
#include "test_harness.h"

struct pin {
   const char *counter; /* a counter name, or "image" for the result's hash */
   uint64_t value;
};

struct pinned_run {
   const char *scene;
   uint32_t size;
   bool predictor;
   struct pin pins[32];
};

static const struct pinned_run pinned_runs[] = {
#include "ao_pins.inc"
};

static uint64_t fnv1a(const void *data, size_t bytes)
{
   const uint8_t *p = data;
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < bytes; i++)
      h = (h ^ p[i]) * 0x100000001b3ull;
   return h;
}

static bool pinned_counter(enum ppu_counter id)
{
   const char *name = ppu_counter_name(id);
   /* The latency buckets and datapath cycles are timing-mode counters (0
    * here); the rest of ttu.* and mmu.* is what the functional TTU moves. */
   return (!strncmp(name, "ttu.", 4) || !strncmp(name, "mmu.", 4)) && !strstr(name, "latency") &&
          !strstr(name, "cycles");
}

static void check_run(const struct pinned_run *r, bool print)
{
   const struct scene_camera *cam = scene_catalog_find(r->scene);
   struct obj_mesh mesh;
   char err[256];
   REQUIRE(cam);
   if (!rt_scene_read(cam, &mesh, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return;
   }
   struct ppu_ttu_predictor_config on = {.enabled = true};
   struct rt_model m;
   uint32_t pixels = r->size * r->size, *result = malloc((size_t)pixels * 4);
   uint64_t counters[PPU_COUNTER_COUNT];
   bool ok = result && rt_model_init_predictor(&m, 1, 0, r->predictor ? &on : NULL);
   if (ok) {
      ok = rt_model_load(&m, &mesh);
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, rt_mesh_diagonal(&mesh), r->size, r->size, 4, &pc);
      ok = ok && rt_ao_run(&m, &pc, 0, result);
      ppu_gpu_read_counters(m.ctu.h.t.gpu, counters);
      rt_model_finish(&m);
   }
   CHECK_MSG(ok, "%s: the AO run failed", r->scene);
   if (ok) {
      uint64_t image = fnv1a(result, (size_t)pixels * 4);
      if (print) {
         printf("    {\"%s\", %u, %s, {{\"image\", 0x%016llxull},\n", r->scene, r->size,
                r->predictor ? "true" : "false", (unsigned long long)image);
         for (int id = 0; id < PPU_COUNTER_COUNT; id++)
            if (pinned_counter(id) && counters[id])
               printf("        {\"%s\", %lluull},\n", ppu_counter_name(id),
                      (unsigned long long)counters[id]);
         printf("    }},\n");
      }
      uint32_t checked = 0;
      for (const struct pin *p = r->pins; p->counter; p++, checked++) {
         uint64_t got = image;
         if (strcmp(p->counter, "image")) {
            int id = 0;
            while (id < PPU_COUNTER_COUNT && strcmp(ppu_counter_name(id), p->counter))
               id++;
            REQUIRE(id < PPU_COUNTER_COUNT);
            got = counters[id];
         }
         CHECK_MSG(got == p->value, "%s %ux%u%s: %s is %llu (0x%llx), pinned %llu (0x%llx)",
                   r->scene, r->size, r->size, r->predictor ? " predictor on" : "", p->counter,
                   (unsigned long long)got, (unsigned long long)got, (unsigned long long)p->value,
                   (unsigned long long)p->value);
      }
      /* Every nonzero pinned counter is in the table (a counter that starts
       * moving must be pinned too). */
      for (int id = 0; id < PPU_COUNTER_COUNT; id++) {
         bool listed = false;
         for (const struct pin *p = r->pins; p->counter && !listed; p++)
            listed = !strcmp(p->counter, ppu_counter_name(id));
         CHECK_MSG(!pinned_counter(id) || listed || counters[id] == 0,
                   "%s: %s = %llu is not pinned", r->scene, ppu_counter_name(id),
                   (unsigned long long)counters[id]);
      }
      CHECK(checked > 1);
   }
   free(result);
   obj_mesh_free(&mesh);
}

TEST_CASE(ao_image_and_ttu_counters_match_the_pinned_values)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("SKIP: no scenes directory %s\n", dir);
      return;
   }
   const char *e = getenv("VKPPU_PRINT_PINS");
   bool print = e && *e && strcmp(e, "0") != 0;
   for (size_t i = 0; i < sizeof(pinned_runs) / sizeof(pinned_runs[0]); i++)
      check_run(&pinned_runs[i], print);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
