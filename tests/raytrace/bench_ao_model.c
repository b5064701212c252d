/* ao.comp on the PPU model at the MICRO'21 ray-intersection-predictor
 * paper's settings (1024x1024, 4 AO rays per pixel) by default: per scene,
 * the BVH build time, rays traced, simulation time and rays/s, and what
 * the TTU counters say per ray. Not a test.
 *
 *   bench_ao_model [--width N] [--height N] [--spp N] [--threads N[,N...]]
 *                  [--band-pixels N] [--predictor] [--go-up-level N]
 *                  [--hash grid|two_point] [--entries N] [scene ...]
 *
 * --threads: ppu_gpu_config.host_worker_threads (host threads running the
 * SMs), one run per value. --band-pixels: pixels per grid (rt_ao_run);
 * bands keep each grid within the harness's 60 s wait. --predictor: each
 * scene runs with the TTU's intersection predictor off and on
 * (docs/ttu.md) and a second table gives the predictor's figures;
 * --go-up-level, --hash and --entries configure it (defaults: the paper's
 * 3, Grid Spherical, 1024). Scenes default to cornell_tiny and teapot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_model.h"

struct options {
   uint32_t width, height, spp, band_pixels;
   uint32_t threads[8], thread_runs;
   bool predictor;
   struct ppu_ttu_predictor_config predictor_config, predictor_resolved;
   double ao_fraction; /* > 0: AO radius = this x the scene diagonal (the paper's 0.25-0.4) */
};

/* The predictor's figures of one scene, printed after the main table. */
struct predictor_row {
   char scene[32];
   uint64_t ao_rays, fetches_off, fetches_on;
   uint64_t c[PPU_COUNTER_COUNT]; /* the predictor-on run */
};
static struct predictor_row predictor_rows[32];
static int predictor_row_count;

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

/* One run of ao.comp on a fresh chip; the counter deltas in d. */
static bool run_once(const struct obj_mesh *mesh, const struct scene_camera *cam,
                     const struct options *o, uint32_t threads,
                     const struct ppu_ttu_predictor_config *predictor, uint32_t *result,
                     uint64_t *d, double *seconds, struct rt_model *info)
{
   struct rt_model m;
   if (!rt_model_init_predictor(&m, threads, vram_mib_for(mesh, o), predictor))
      return false;
   bool ok = rt_model_load(&m, mesh);
   if (ok) {
      struct rt_ao_push pc;
      rt_ao_push_setup(cam, rt_mesh_diagonal(mesh), o->width, o->height, o->spp, &pc);
      if (o->ao_fraction > 0)
         pc.ao_radius = (float)(o->ao_fraction * rt_mesh_diagonal(mesh));
      uint64_t before[PPU_COUNTER_COUNT], after[PPU_COUNTER_COUNT];
      ppu_gpu_read_counters(m.ctu.h.t.gpu, before);
      double t0 = now_seconds();
      ok = rt_ao_run(&m, &pc, o->band_pixels, result);
      *seconds = now_seconds() - t0;
      ppu_gpu_read_counters(m.ctu.h.t.gpu, after);
      for (int i = 0; i < PPU_COUNTER_COUNT; i++)
         d[i] = after[i] - before[i];
      info->triangle_count = m.triangle_count;
      info->build_ms = m.build_ms;
   }
   rt_model_finish(&m);
   return ok;
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
   struct rt_model m = {0};
   uint64_t d[PPU_COUNTER_COUNT];
   double seconds = 0;
   bool ok = result && run_once(&mesh, cam, o, threads, NULL, result, d, &seconds, &m);
   if (ok) {
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
      fflush(stdout);
      if (o->predictor && predictor_row_count < 32) {
         struct predictor_row *r = &predictor_rows[predictor_row_count];
         uint32_t *with = malloc(pixels * 4);
         ok = with &&
              run_once(&mesh, cam, o, threads, &o->predictor_config, with, r->c, &seconds, &m);
         if (ok && memcmp(with, result, pixels * 4))
            printf("  note: %s: per-pixel AO differs with the predictor on\n", name);
         snprintf(r->scene, sizeof(r->scene), "%s", name);
         r->ao_rays = s.ao_rays;
         r->fetches_off = d[PPU_COUNTER_TTU_NODE_FETCHES];
         r->fetches_on = r->c[PPU_COUNTER_TTU_NODE_FETCHES];
         predictor_row_count += ok;
         free(with);
      }
   }
   free(result);
   obj_mesh_free(&mesh);
   if (!ok)
      fprintf(stderr, "bench_ao_model: %s failed\n", name);
   return ok;
}

/* The paper's figures (section 6): of all AO rays, % predicted and %
 * verified; node fetches (our memory accesses) saved against the
 * predictor-off run, measured and by equation 1. */
static void print_predictor_table(const struct options *o)
{
   const struct ppu_ttu_predictor_config *c = &o->predictor_resolved;
   printf("\nintersection predictor: %u entries, %u-way, %u-bit tags, %u node(s), %s hash, Go Up "
          "Level %u\n",
          c->entries, c->ways, c->tag_bits, c->nodes_per_entry,
          c->hash == PPU_TTU_PREDICTOR_HASH_TWO_POINT ? "Two Point" : "Grid Spherical",
          c->go_up_level);
   printf("%-16s %9s %9s %9s %9s %11s %11s %8s %8s\n", "scene", "ao_rays", "predicted", "verified",
          "mispred", "fetches_off", "fetches_on", "saved", "eq1");
   for (int i = 0; i < predictor_row_count; i++) {
      const struct predictor_row *r = &predictor_rows[i];
      double eq1 = (double)r->c[PPU_COUNTER_TTU_PREDICTOR_NODES_SKIPPED] -
                   (double)r->c[PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES];
      printf("%-16s %9llu %8.1f%% %8.1f%% %8.1f%% %11llu %11llu %7.1f%% %7.1f%%\n", r->scene,
             (unsigned long long)r->ao_rays,
             100.0 * per(r->c[PPU_COUNTER_TTU_PREDICTOR_PREDICTED], r->ao_rays),
             100.0 * per(r->c[PPU_COUNTER_TTU_PREDICTOR_VERIFIED], r->ao_rays),
             100.0 * per(r->c[PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED], r->ao_rays),
             (unsigned long long)r->fetches_off, (unsigned long long)r->fetches_on,
             100.0 * (1.0 - per(r->fetches_on, r->fetches_off)),
             r->fetches_off ? 100.0 * eq1 / (double)r->fetches_off : 0.0);
   }
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
   /* The predictor's documented defaults (ttu.predictor.* keys), then the
    * options below. */
   struct ppu_gpu_config defaults;
   ppu_gpu_config_default(&defaults);
   o.predictor_config = defaults.ttu_predictor;
   const char *scenes[32];
   int scene_count = 0;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (!strcmp(a, "--width") && v)
         ok = parse_u32(v, &o.width), i++;
      else if (!strcmp(a, "--height") && v)
         ok = parse_u32(v, &o.height), i++;
      else if (!strcmp(a, "--ao-fraction") && v)
         o.ao_fraction = strtod(v, NULL), ok = o.ao_fraction > 0 && o.ao_fraction <= 1, i++;
      else if (!strcmp(a, "--spp") && v)
         ok = parse_u32(v, &o.spp), i++;
      else if (!strcmp(a, "--band-pixels") && v)
         o.band_pixels = (uint32_t)strtoul(v, NULL, 10), i++;
      else if (!strcmp(a, "--threads") && v)
         ok = parse_threads(v, &o), i++;
      else if (!strcmp(a, "--predictor"))
         o.predictor = true;
      else if (!strcmp(a, "--go-up-level") && v) {
         uint32_t k = (uint32_t)strtoul(v, NULL, 10);
         o.predictor_config.go_up_level = k, i++;
      } else if (!strcmp(a, "--hash") && v) {
         ok = !strcmp(v, "grid") || !strcmp(v, "two_point"), i++;
         o.predictor_config.hash = !strcmp(v, "grid") ? PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL
                                                      : PPU_TTU_PREDICTOR_HASH_TWO_POINT;
      } else if (!strcmp(a, "--entries") && v)
         ok = parse_u32(v, &o.predictor_config.entries), i++;
      else if (a[0] != '-' && scene_count < 32)
         scenes[scene_count++] = a;
      else
         ok = false;
      if (!ok) {
         fprintf(
             stderr,
             "usage: %s [--width N] [--height N] [--spp N] [--ao-fraction F] [--threads N[,N...]] "
             "[--band-pixels N] [--predictor] [--go-up-level N] [--hash grid|two_point] "
             "[--entries N] [scene ...]\n",
             argv[0]);
         return 2;
      }
   }
   if (!scene_count) {
      scenes[scene_count++] = "cornell_tiny";
      scenes[scene_count++] = "teapot";
   }
   o.predictor_config.enabled = true;
   char err[160];
   /* The chip gets the configuration as given (0: default, ZERO: 0); the
    * resolved copy is for the table's heading. */
   if (o.predictor && !ppu_ttu_predictor_config_resolve(&o.predictor_config, &o.predictor_resolved,
                                                        err, sizeof(err))) {
      fprintf(stderr, "bench_ao_model: %s\n", err);
      return 2;
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
      if (o.predictor)
         print_predictor_table(&o);
      predictor_row_count = 0;
   }
   return failed ? 1 : 0;
}
