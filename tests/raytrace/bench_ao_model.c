/* ao.comp on the PPU model at the MICRO'21 ray-intersection-predictor
 * paper's settings (1024x1024, 4 AO rays per pixel) by default: per scene,
 * the BVH build time, rays traced, simulation time and rays/s, and what
 * the TTU counters say per ray. Not a test.
 *
 *   bench_ao_model [--width N] [--height N] [--spp N] [--threads N[,N...]]
 *                  [--band-pixels N] [scene ...]
 *
 * --threads: ppu_gpu_config.host_worker_threads (host threads running the
 * SMs), one run per value. --band-pixels: pixels per grid (rt_ao_run);
 * bands keep each grid within the harness's 60 s wait. Scenes default to
 * cornell_tiny and teapot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_model.h"

struct options {
   uint32_t width, height, spp, band_pixels;
   uint32_t threads[8], thread_runs;
};

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double per(uint64_t a, uint64_t b)
{
   return b ? (double)a / (double)b : 0.0;
}

/* Enough VRAM for the mesh, its worst-case BLAS and the result, with room
 * for the harness's own buffers. */
static uint32_t vram_mib_for(const struct obj_mesh *mesh, const struct options *o)
{
   struct bvh_sizes sizes = {0};
   bvh_get_sizes(PPU_BVH_KIND_TRIANGLES, 1, mesh->triangle_count, &sizes);
   uint64_t bytes = sizes.structure_size + 12ull * mesh->vertex_count +
                    12ull * mesh->triangle_count + 4ull * o->width * o->height;
   return (uint32_t)((bytes >> 20) + 64);
}

static bool run_scene(const char *name, const struct options *o, uint32_t threads)
{
   const struct scene_camera *cam = scene_catalog_find(name);
   if (!cam) {
      fprintf(stderr, "bench_ao_model: unknown scene %s\n", name);
      return false;
   }
   struct obj_mesh mesh;
   char err[256];
   if (!rt_scene_read(cam, &mesh, err, sizeof(err))) {
      printf("%-16s skipped (%s)\n", name, err);
      return true;
   }
   size_t pixels = (size_t)o->width * o->height;
   uint32_t *result = malloc(pixels * 4);
   struct rt_model m;
   bool ok = result && rt_model_init(&m, threads, vram_mib_for(&mesh, o));
   if (ok && rt_model_load(&m, &mesh)) {
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, rt_mesh_diagonal(&mesh), o->width, o->height, o->spp, &pc);
      uint64_t before[PPU_COUNTER_COUNT], after[PPU_COUNTER_COUNT];
      ppu_gpu_read_counters(m.ctu.h.t.gpu, before);
      double t0 = now_seconds();
      ok = rt_ao_run(&m, &pc, o->band_pixels, result);
      double seconds = now_seconds() - t0;
      ppu_gpu_read_counters(m.ctu.h.t.gpu, after);
      if (ok) {
         uint64_t d[PPU_COUNTER_COUNT];
         for (int i = 0; i < PPU_COUNTER_COUNT; i++)
            d[i] = after[i] - before[i];
         struct rt_ao_stats s;
         rt_ao_stats(result, o->width, o->height, o->spp, &s);
         uint64_t rays = s.primary_rays + s.ao_rays;
         uint64_t lookups = d[PPU_COUNTER_TTU_L0_HITS] + d[PPU_COUNTER_TTU_L0_MISSES];
         printf("%-16s %9u %9.1f %9llu %9llu %8.2f %9.0f %7.2f %7.2f %7.2f %6.1f%% %6.4f %6.4f\n",
                name, m.triangle_count, m.build_ms, (unsigned long long)s.primary_rays,
                (unsigned long long)s.ao_rays, seconds, rays / seconds,
                per(d[PPU_COUNTER_TTU_NODE_FETCHES], rays), per(d[PPU_COUNTER_TTU_BOX_TESTS], rays),
                per(d[PPU_COUNTER_TTU_TRIANGLE_TESTS], rays),
                100.0 * per(d[PPU_COUNTER_TTU_L0_HITS], lookups), s.hit_fraction, s.mean_ao);
         if (d[PPU_COUNTER_TTU_RAYS] != rays)
            printf("  note: ttu.rays = %llu, the shader's count %llu\n",
                   (unsigned long long)d[PPU_COUNTER_TTU_RAYS], (unsigned long long)rays);
      }
      fflush(stdout);
   } else {
      ok = false;
   }
   if (result)
      rt_model_finish(&m);
   free(result);
   obj_mesh_free(&mesh);
   if (!ok)
      fprintf(stderr, "bench_ao_model: %s failed\n", name);
   return ok;
}

static bool parse_u32(const char *s, uint32_t *v)
{
   char *end;
   unsigned long x = strtoul(s, &end, 10);
   if (!*s || *end || x == 0 || x > 65536)
      return false;
   *v = (uint32_t)x;
   return true;
}

static bool parse_threads(const char *s, struct options *o)
{
   o->thread_runs = 0;
   char buf[128];
   snprintf(buf, sizeof(buf), "%s", s);
   for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      if (o->thread_runs == 8 || !parse_u32(tok, &o->threads[o->thread_runs]))
         return false;
      o->thread_runs++;
   }
   return o->thread_runs > 0;
}

int main(int argc, char **argv)
{
   struct options o = {.width = 1024,
                       .height = 1024,
                       .spp = 4,
                       .band_pixels = 256 * 256,
                       .threads = {0},
                       .thread_runs = 1};
   const char *scenes[32];
   int scene_count = 0;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (!strcmp(a, "--width") && v)
         ok = parse_u32(v, &o.width), i++;
      else if (!strcmp(a, "--height") && v)
         ok = parse_u32(v, &o.height), i++;
      else if (!strcmp(a, "--spp") && v)
         ok = parse_u32(v, &o.spp), i++;
      else if (!strcmp(a, "--band-pixels") && v)
         o.band_pixels = (uint32_t)strtoul(v, NULL, 10), i++;
      else if (!strcmp(a, "--threads") && v)
         ok = parse_threads(v, &o), i++;
      else if (a[0] != '-' && scene_count < 32)
         scenes[scene_count++] = a;
      else
         ok = false;
      if (!ok) {
         fprintf(stderr,
                 "usage: %s [--width N] [--height N] [--spp N] [--threads N[,N...]] "
                 "[--band-pixels N] [scene ...]\n",
                 argv[0]);
         return 2;
      }
   }
   if (!scene_count) {
      scenes[scene_count++] = "cornell_tiny";
      scenes[scene_count++] = "teapot";
   }
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("bench_ao_model: no scenes directory %s\n", dir);
      return 0;
   }
   int failed = 0;
   for (uint32_t r = 0; r < o.thread_runs; r++) {
      printf("%ux%u, %u AO rays per pixel, host worker threads %u%s\n", o.width, o.height, o.spp,
             o.threads[r], o.threads[r] ? "" : " (default)");
      printf("%-16s %9s %9s %9s %9s %8s %9s %7s %7s %7s %7s %6s %6s\n", "scene", "triangles",
             "build_ms", "primary", "ao_rays", "seconds", "rays/s", "nodes/r", "boxes/r", "tris/r",
             "L0hit", "hit", "meanAO");
      for (int s = 0; s < scene_count; s++)
         failed += !run_scene(scenes[s], &o, o.threads[r]);
   }
   return failed ? 1 : 0;
}
