/* ao.comp (the ray-query sample's shader, unchanged) on the PPU model over
 * cornell_tiny reproduces the figures of ../shared/scenes/README.md: every
 * primary ray hits, and the mean unoccluded fraction is the README's 0.737.
 *
 * Tolerance. The README's 0.737 is itself a 512x512, 16 spp estimate
 * (about +-0.005). At 128x128 x 16 spp we average 262144 AO rays; a ray
 * escapes with p ~ 0.74, so the standard error is about
 * sqrt(0.74 * 0.26 / 262144) = 0.0009 (somewhat more, as the rays of one
 * pixel share an origin), and sampling pixel centres of a 128x128 instead of
 * a 512x512 grid moves the mean by a few thousandths at most on this scene of
 * large flat faces. 0.02 covers README error + 4 sigma + resolution with
 * room, yet fails a real error (wrong normal side, self-hits from a missing
 * origin offset, or rays leaking through edges each move the mean by more
 * than 0.05). The sanitizer run uses 32x32 x 8 spp: 8192 rays, sigma 0.005,
 * which 0.02 still covers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_model.h"
#include "test_harness.h"

#define README_TOLERANCE 0.02

TEST_CASE(ao_cornell_matches_readme)
{
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("SKIP: no scenes directory %s\n", dir);
      return;
   }
   const struct scene_camera *cam = scene_catalog_find("cornell_tiny");
   struct obj_mesh mesh;
   char err[256];
   REQUIRE(cam);
   if (!rt_scene_read(cam, &mesh, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s", err);
      return;
   }
   uint32_t size = rt_small_run() ? 32 : 128, spp = rt_small_run() ? 8 : 16;
   struct rt_model m;
   REQUIRE(rt_model_init(&m, 0, 0));
   uint32_t *result = malloc((size_t)size * size * 4);
   if (result && rt_model_load(&m, &mesh)) {
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, rt_mesh_diagonal(&mesh), size, size, spp, &pc);
      if (rt_ao_run(&m, &pc, 0, result)) {
         struct rt_ao_stats s;
         rt_ao_stats(result, size, size, spp, &s);
         printf("  cornell_tiny %ux%u, %u spp: hit fraction %.4f, mean AO %.4f (README %.3f, "
                "%.3f)\n",
                size, size, spp, s.hit_fraction, s.mean_ao, cam->reference_hit_fraction,
                cam->reference_mean_ao);
         CHECK_MSG(s.hit_pixels == (uint64_t)size * size, "%llu of %u primary rays hit",
                   (unsigned long long)s.hit_pixels, size * size);
         CHECK_MSG(fabs(s.mean_ao - cam->reference_mean_ao) <= README_TOLERANCE,
                   "mean AO %.4f is not within %.3f of the README's %.3f", s.mean_ao,
                   README_TOLERANCE, cam->reference_mean_ao);
         uint64_t counters[PPU_COUNTER_COUNT];
         ppu_gpu_read_counters(m.ctu.h.t.gpu, counters);
         CHECK_EQ_U64(counters[PPU_COUNTER_TTU_RAYS], s.primary_rays + s.ao_rays);
      }
   }
   free(result);
   rt_model_finish(&m);
   obj_mesh_free(&mesh);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
