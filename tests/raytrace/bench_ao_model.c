/* ao.comp on the PPU model at the MICRO'21 ray-intersection-predictor
 * paper's settings (1024x1024, 4 AO rays per pixel) by default: per scene,
 * the BVH build time, rays traced, simulation time and rays/s, and what
 * the TTU counters say per ray. Not a test.
 *
 *   bench_ao_model [--width N] [--height N] [--spp N] [--threads N[,N...]]
 *                  [--band-pixels N] [--predictor] [--go-up-level N]
 *                  [--hash grid|two_point] [--entries N] [--beam N] [--embree] [--lavapipe]
 *                  [scene ...]
 *
 * --threads: ppu_gpu_config.host_worker_threads (host threads running the
 * SMs), one run per value. --band-pixels: pixels per grid (rt_ao_run);
 * bands keep each grid within the harness's 60 s wait. --predictor: each
 * scene runs with the TTU's intersection predictor off and on
 * (docs/ttu.md) and a second table gives the predictor's figures;
 * --go-up-level, --hash and --entries configure it (defaults: the paper's
 * 3, Grid Spherical, 1024). --beam N: warp beams on (ttu.beam.enabled, N
 * nodes per beam, docs/ttu.md), with a line of beam counts per scene. --embree: each scene's rays
 * are traced by Embree 3 on as many host threads too (rt_embree.h; only in a build that found
 * libembree-dev); --lavapipe: the ray-query sample runs the scene on lavapipe with as many threads
 * (rt_lavapipe.h). A last table gives the rates, the ratios and the build times, all from this one
 * run (the machine is shared: only ratios measured together mean anything). Scenes default to
 * cornell_tiny and teapot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_embree.h"
#include "rt_lavapipe.h"
#include "rt_model.h"

struct options {
   struct rt_ao_bench run; /* host_threads: set per run from threads[] */
   uint32_t threads[8], thread_runs;
   bool predictor, embree, lavapipe;
   struct ppu_ttu_predictor_config predictor_config, predictor_resolved;
};

/* The predictor's figures of one scene, printed after the main table. */
struct predictor_row {
   char scene[32];
   uint64_t ao_rays, fetches_off, fetches_on;
   struct rt_predictor_figures f;
};
static struct predictor_row predictor_rows[32];
static int predictor_row_count;

/* One scene on the model and the baselines, printed after the main table. */
struct baseline_row {
   char scene[32];
   double model_mrays, model_build_ms, model_mean_ao;
   double model_sah, fast_build_ms, fast_sah; /* SAH cost; the PREFER_FAST_BUILD BLAS */
   bool has_embree, has_lavapipe;
   struct rt_embree_measurement e;
   struct rt_lavapipe_measurement lvp;
};
static struct baseline_row baseline_rows[32];
static int baseline_row_count;

static double per(uint64_t a, uint64_t b)
{
   return b ? (double)a / (double)b : 0.0;
}

static bool run_scene(const char *name, const struct options *o)
{
   const struct scene_camera *cam;
   struct obj_mesh mesh;
   int opened = rt_scene_open(name, &cam, &mesh);
   if (opened <= 0)
      return opened == 0;
   size_t pixels = (size_t)o->run.width * o->run.height;
   uint32_t *result = malloc(pixels * 4);
   struct rt_ao_measurement m;
   bool ok = result && rt_ao_measure(&mesh, cam, &o->run, NULL, result, &m);
   if (ok) {
      const uint64_t *d = m.counters;
      struct rt_ao_stats s;
      rt_ao_stats(result, o->run.width, o->run.height, o->run.spp, &s);
      uint64_t rays = s.primary_rays + s.ao_rays;
      uint64_t lookups = d[PPU_COUNTER_TTU_L0_HITS] + d[PPU_COUNTER_TTU_L0_MISSES];
      printf("%-16s %9u %9.1f %9llu %9llu %8.2f %9.0f %7.2f %7.2f %7.2f %6.1f%% %6.4f %6.4f\n",
             name, m.triangle_count, m.build_ms, (unsigned long long)s.primary_rays,
             (unsigned long long)s.ao_rays, m.seconds, rays / m.seconds,
             per(d[PPU_COUNTER_TTU_NODE_FETCHES], rays), per(d[PPU_COUNTER_TTU_BOX_TESTS], rays),
             per(d[PPU_COUNTER_TTU_TRIANGLE_TESTS], rays),
             100.0 * per(d[PPU_COUNTER_TTU_L0_HITS], lookups), s.hit_fraction, s.mean_ao);
      if (o->run.beam_nodes)
         printf("  beams: %llu formed, %llu refused; %llu node fetches by beams, %llu node reads "
                "served by them\n",
                (unsigned long long)d[PPU_COUNTER_TTU_BEAMS],
                (unsigned long long)d[PPU_COUNTER_TTU_BEAMS_REFUSED],
                (unsigned long long)d[PPU_COUNTER_TTU_BEAM_NODE_FETCHES],
                (unsigned long long)d[PPU_COUNTER_TTU_BEAM_NODE_SHARES]);
      if (d[PPU_COUNTER_TTU_RAYS] != rays)
         printf("  note: ttu.rays = %llu, the shader's count %llu\n",
                (unsigned long long)d[PPU_COUNTER_TTU_RAYS], (unsigned long long)rays);
      fflush(stdout);
      if ((o->embree || o->lavapipe) && baseline_row_count < 32) {
         struct baseline_row *r = &baseline_rows[baseline_row_count++];
         snprintf(r->scene, sizeof(r->scene), "%s", name);
         r->model_mrays = rays / m.seconds * 1e-6;
         r->model_build_ms = m.blas_build_ms;
         r->model_sah = m.blas_sah_cost;
         rt_model_time_fast_build(&mesh, o->run.host_threads, &r->fast_build_ms, &r->fast_sah);
         r->model_mean_ao = s.mean_ao;
         r->has_embree = o->embree && rt_embree_ao(&mesh, cam, &o->run, &r->e);
         r->has_lavapipe = o->lavapipe && rt_lavapipe_ao(name, o->run.width, o->run.height,
                                                         o->run.spp, o->run.host_threads, &r->lvp);
         ok = (r->has_embree || !o->embree) && (r->has_lavapipe || !o->lavapipe);
      }
      if (o->predictor && predictor_row_count < 32) {
         struct predictor_row *r = &predictor_rows[predictor_row_count];
         uint32_t *with = malloc(pixels * 4);
         struct rt_ao_measurement on;
         ok = with && rt_ao_measure(&mesh, cam, &o->run, &o->predictor_config, with, &on);
         if (ok && memcmp(with, result, pixels * 4))
            printf("  note: %s: per-pixel AO differs with the predictor on\n", name);
         snprintf(r->scene, sizeof(r->scene), "%s", name);
         r->ao_rays = s.ao_rays;
         r->fetches_off = d[PPU_COUNTER_TTU_NODE_FETCHES];
         r->fetches_on = on.counters[PPU_COUNTER_TTU_NODE_FETCHES];
         rt_predictor_figures(on.counters, r->fetches_off, r->ao_rays, &r->f);
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
      printf("%-16s %9llu %8.1f%% %8.1f%% %8.1f%% %11llu %11llu %7.1f%% %7.1f%%\n", r->scene,
             (unsigned long long)r->ao_rays, 100.0 * r->f.predicted, 100.0 * r->f.verified,
             100.0 * r->f.mispredicted, (unsigned long long)r->fetches_off,
             (unsigned long long)r->fetches_on, 100.0 * r->f.fetches_saved, 100.0 * r->f.eq1);
   }
}

static void print_baseline_table(void)
{
   printf("\nBaselines on the same scenes and host threads (BLAS build ms: vkppu bvh_build, "
          "lavapipe's device build, Embree's scene commit)\n");
   printf("%-12s %8s %8s %8s %9s %9s %8s %8s %8s %8s %8s\n", "scene", "vkppu", "lavapipe", "embree",
          "vkppu/lvp", "vkppu/emb", "b_vkppu", "b_lvp", "b_embree", "AO_vkppu", "AO_embree");
   for (int i = 0; i < baseline_row_count; i++) {
      const struct baseline_row *r = &baseline_rows[i];
      const struct rt_ao_stats *s = &r->e.stats;
      double emb = r->has_embree ? (double)(s->primary_rays + s->ao_rays) / r->e.seconds * 1e-6 : 0;
      double lvp = r->has_lavapipe ? r->lvp.mrays : 0;
      printf("%-12s %8.3f %8.3f %8.3f %9.3f %9.4f %8.1f %8.1f %8.1f %8.4f %8.4f\n", r->scene,
             r->model_mrays, lvp, emb, lvp > 0 ? r->model_mrays / lvp : 0,
             emb > 0 ? r->model_mrays / emb : 0, r->model_build_ms, r->lvp.blas_build_ms,
             r->e.build_ms, r->model_mean_ao, s->mean_ao);
   }
   printf("(Mrays/s; 0 where a baseline was not run)\n");
   printf("\nvkppu BLAS builds: default (binned SAH) and PREFER_FAST_BUILD (linear BVH), host "
          "threads as above\n");
   printf("%-12s %9s %9s %9s %9s\n", "scene", "b_sah_ms", "sah_cost", "b_fast_ms", "fast_cost");
   for (int i = 0; i < baseline_row_count; i++) {
      const struct baseline_row *r = &baseline_rows[i];
      printf("%-12s %9.1f %9.2f %9.1f %9.2f\n", r->scene, r->model_build_ms, r->model_sah,
             r->fast_build_ms, r->fast_sah);
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
   struct options o = {.run = {.width = 1024, .height = 1024, .spp = 4, .band_pixels = 256 * 256},
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
         ok = parse_u32(v, &o.run.width), i++;
      else if (!strcmp(a, "--height") && v)
         ok = parse_u32(v, &o.run.height), i++;
      else if (!strcmp(a, "--ao-fraction") && v)
         o.run.ao_fraction = strtod(v, NULL), ok = o.run.ao_fraction > 0 && o.run.ao_fraction <= 1,
         i++;
      else if (!strcmp(a, "--spp") && v)
         ok = parse_u32(v, &o.run.spp), i++;
      else if (!strcmp(a, "--band-pixels") && v)
         o.run.band_pixels = (uint32_t)strtoul(v, NULL, 10), i++;
      else if (!strcmp(a, "--threads") && v)
         ok = parse_threads(v, &o), i++;
      else if (!strcmp(a, "--predictor"))
         o.predictor = true;
      else if (!strcmp(a, "--beam") && v)
         ok = parse_u32(v, &o.run.beam_nodes) && o.run.beam_nodes <= 256, i++;
      else if (!strcmp(a, "--embree"))
         o.embree = true;
      else if (!strcmp(a, "--lavapipe"))
         o.lavapipe = true;
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
             "[--entries N] [--beam N] [--embree] [--lavapipe] [scene ...]\n",
             argv[0]);
         return 2;
      }
   }
   if (!scene_count) {
      scenes[scene_count++] = "cornell_tiny";
      scenes[scene_count++] = "teapot";
   }
   if (o.embree && !rt_embree_available()) {
      fprintf(stderr, "bench_ao_model: --embree needs a build that found libembree-dev "
                      "(tools/install-deps.sh installs it; reconfigure)\n");
      return 2;
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
      printf("%ux%u, %u AO rays per pixel, host worker threads %u%s\n", o.run.width, o.run.height,
             o.run.spp, o.threads[r], o.threads[r] ? "" : " (default)");
      printf("%-16s %9s %9s %9s %9s %8s %9s %7s %7s %7s %7s %6s %6s\n", "scene", "triangles",
             "build_ms", "primary", "ao_rays", "seconds", "rays/s", "nodes/r", "boxes/r", "tris/r",
             "L0hit", "hit", "meanAO");
      o.run.host_threads = o.threads[r];
      for (int s = 0; s < scene_count; s++)
         failed += !run_scene(scenes[s], &o);
      if (o.predictor)
         print_predictor_table(&o);
      if (o.embree || o.lavapipe)
         print_baseline_table();
      predictor_row_count = 0;
      baseline_row_count = 0;
   }
   return failed ? 1 : 0;
}
