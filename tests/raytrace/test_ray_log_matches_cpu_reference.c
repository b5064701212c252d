/* The rays of the ray-query AO sample, traced on the PPU model (shader ->
 * compiler -> TTU -> driver/bvh's BVH), agree with a brute-force binary64
 * CPU caster (rt_reference.c, which shares no code with the TTU or the
 * builder) on exactly the same rays.
 *
 * shaders/ray_log.comp generates ao.comp's primary and AO rays and writes
 * each ray (origin, direction, tmin, tmax, flags) with its committed result
 * (type, t, primitive, barycentrics). We first check that it IS ao.comp's
 * workload: its per-pixel count of escaped AO rays must equal ao.comp's
 * output exactly. Then every logged ray is traced on the CPU: hit/miss and
 * the primitive must agree exactly, and t within T_RELATIVE, except for
 * rays the reference classes as grazing (rt_reference.h), which are
 * counted, printed and must stay below MAX_GRAZING_FRACTION. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ray_query.h"
#include "rt_model.h"
#include "rt_reference.h"
#include "test_harness.h"

/* t agrees within 1e-5 relative, plus a floor of a few binary32 ulps of the
 * coordinates over |direction|: the binary32 test translates the vertices
 * to the ray origin before anything else, which moves t by that much in
 * absolute terms, and AO rays hitting the adjacent wall of a corner have t
 * near the 1e-5 x diagonal origin offset, where that floor dominates. */
#define T_RELATIVE 1e-5
#define T_FLOOR_ULPS 8.0
/* Barycentrics are reported; they are checked loosely, since a sliver
 * makes them ill-conditioned. */
#define BARY_TOLERANCE 1e-3
#define MAX_GRAZING_FRACTION 0.001
#define MAX_PRINTED 8

enum { KIND_UNUSED = 0, KIND_PRIMARY = 1, KIND_AO = 2 };

/* ray_log.comp's Ray and Hit (std430). */
struct logged_ray {
   float origin[3], tmin;
   float direction[3], tmax;
   uint32_t flags, kind, pixel, sample;
};

struct logged_hit {
   uint32_t type, primitive, first_hit_type, unused0;
   float t, u, v, unused1;
};

struct log_stats {
   uint64_t rays, hits, grazing, mismatches;
   double max_t_error, max_bary_error; /* over agreeing hits */
};

static void print_ray(const char *what, const struct logged_ray *r, const struct logged_hit *h,
                      const struct rt_ref_hit *ref)
{
   printf("    %s: pixel %u sample %u kind %u o (%.9g %.9g %.9g) d (%.9g %.9g %.9g) t [%g %g]\n"
          "      model: type %u prim %d t %.9g uv (%.6g %.6g); reference: hit %d prim %d t %.9g "
          "uv (%.6g %.6g)%s\n",
          what, r->pixel, r->sample, r->kind, r->origin[0], r->origin[1], r->origin[2],
          r->direction[0], r->direction[1], r->direction[2], r->tmin, r->tmax, h->type,
          (int)h->primitive, h->t, h->u, h->v, ref->hit, (int)ref->primitive, ref->t, ref->u,
          ref->v, ref->grazing ? " (grazing)" : "");
}

/* Compares one logged ray with the reference; false on a real mismatch. */
static bool check_ray(const struct logged_ray *r, const struct logged_hit *h,
                      const struct rt_ref_hit *ref, struct log_stats *st, char *why, size_t size)
{
   bool model_hit = h->type != PPU_RQ_COMMITTED_NONE;
   if (h->type > PPU_RQ_COMMITTED_TRIANGLE) {
      snprintf(why, size, "committed type %u", h->type);
      return false;
   }
   /* TerminateOnFirstHit commits any hit of the same ray: it hits exactly
    * when the closest-hit query does, grazing or not. */
   if (r->kind == KIND_AO && (h->first_hit_type != PPU_RQ_COMMITTED_NONE) != model_hit) {
      snprintf(why, size, "first-hit query %s, closest-hit query %s",
               h->first_hit_type ? "hit" : "missed", model_hit ? "hit" : "missed");
      return false;
   }
   double dl =
       sqrt((double)r->direction[0] * r->direction[0] + (double)r->direction[1] * r->direction[1] +
            (double)r->direction[2] * r->direction[2]);
   double t_floor = T_FLOOR_ULPS * FLT_EPSILON * ref->scale / dl;
   const char *wrong;
   double t_tol = T_RELATIVE * (model_hit ? h->t : 0) + t_floor;
   if (!rt_ref_accepts(ref, model_hit, h->primitive, h->t, t_tol, &wrong)) {
      snprintf(why, size, "%s", wrong);
      return false;
   }
   if (!model_hit || ref->grazing)
      return true;
   double t_err = fabs(h->t - ref->t);
   double bary_err = fmax(fabs(h->u - ref->u), fabs(h->v - ref->v));
   st->max_t_error = fmax(st->max_t_error, t_err / ref->t);
   st->max_bary_error = fmax(st->max_bary_error, bary_err);
   if (bary_err > BARY_TOLERANCE) {
      snprintf(why, size, "barycentrics differ by %g", bary_err);
      return false;
   }
   return true;
}

static void check_scene(const char *name, uint32_t width, uint32_t height, uint32_t spp)
{
   const struct scene_camera *cam = scene_catalog_find(name);
   struct obj_mesh mesh;
   char err[256];
   if (!cam || !rt_scene_read(cam, &mesh, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "%s: %s", name, cam ? err : "no camera");
      return;
   }
   float *soup = obj_mesh_triangle_soup(&mesh);
   uint32_t pixels = width * height, slots = pixels * (spp + 1);
   struct logged_ray *rays = malloc((size_t)slots * sizeof(*rays));
   struct logged_hit *hits = malloc((size_t)slots * sizeof(*hits));
   uint32_t *logged_result = malloc((size_t)pixels * 4), *ao_result = malloc((size_t)pixels * 4);
   struct rt_model m;
   bool ok = soup && rays && hits && logged_result && ao_result && rt_model_init(&m, 0, 0);
   if (!ok) {
      test_fail(__FILE__, __LINE__, "%s: setup failed", name);
      goto out;
   }
   struct rt_ao_push pc;
   rt_ao_push_setup(cam, rt_mesh_diagonal(&mesh), width, height, spp, &pc);
   uint64_t result_va = rt_model_buffer(&m, NULL, pixels * 4);
   struct rt_extra_binding logs[2] = {
       {rt_model_buffer(&m, NULL, slots * (uint32_t)sizeof(*rays)), slots * sizeof(*rays)},
       {rt_model_buffer(&m, NULL, slots * (uint32_t)sizeof(*hits)), slots * sizeof(*hits)},
   };
   uint32_t groups[3] = {(width + RT_AO_WORKGROUP - 1) / RT_AO_WORKGROUP,
                         (height + RT_AO_WORKGROUP - 1) / RT_AO_WORKGROUP, 1};
   ok = rt_model_load(&m, &mesh) &&
        rt_model_dispatch(&m, RT_SHADER_RAY_LOG, &pc, sizeof(pc), result_va, pixels * 4, logs, 2,
                          groups) &&
        rt_ao_run(&m, &pc, 0, ao_result);
   if (!ok)
      goto finish;
   rt_model_read(&m, result_va, logged_result, pixels * 4);
   rt_model_read(&m, logs[0].va, rays, logs[0].bytes);
   rt_model_read(&m, logs[1].va, hits, logs[1].bytes);

   uint32_t differing = 0;
   for (uint32_t p = 0; p < pixels; p++)
      differing += logged_result[p] != ao_result[p];
   CHECK_MSG(differing == 0, "%s: ray_log.comp and ao.comp disagree on %u of %u pixels", name,
             differing, pixels);

   struct log_stats st = {0};
   uint32_t printed = 0;
   for (uint32_t i = 0; i < slots; i++) {
      const struct logged_ray *r = &rays[i];
      if (r->kind == KIND_UNUSED)
         continue;
      bool sane = r->kind <= KIND_AO && r->flags == PPU_RAY_FLAG_OPAQUE && r->tmin == 0.0f &&
                  r->tmax == (r->kind == KIND_PRIMARY ? 1e30f : pc.ao_radius);
      struct rt_ref_ray ref_ray = {.tmin = r->tmin, .tmax = r->tmax};
      for (int a = 0; a < 3; a++) {
         ref_ray.origin[a] = r->origin[a];
         ref_ray.direction[a] = r->direction[a];
      }
      struct rt_ref_hit ref;
      rt_ref_trace(soup, mesh.triangle_count, &ref_ray, &ref);
      st.rays++;
      st.hits += ref.hit;
      st.grazing += ref.grazing;
      char why[128] = "logged ray is not the sample's (flags, tmin or tmax)";
      if (!sane || !check_ray(r, &hits[i], &ref, &st, why, sizeof(why))) {
         st.mismatches++;
         if (printed++ < MAX_PRINTED)
            print_ray(why, r, &hits[i], &ref);
      } else if (ref.grazing && printed++ < MAX_PRINTED) {
         print_ray("grazing", r, &hits[i], &ref);
      }
   }
   printf("  %s %ux%u x %u spp: %llu rays (%llu hit), %llu grazing (%.4f%%), %llu mismatches; "
          "max t error %.2g relative, max barycentric error %.2g\n",
          name, width, height, spp, (unsigned long long)st.rays, (unsigned long long)st.hits,
          (unsigned long long)st.grazing, st.rays ? 100.0 * st.grazing / st.rays : 0.0,
          (unsigned long long)st.mismatches, st.max_t_error, st.max_bary_error);
   CHECK_MSG(st.mismatches == 0, "%s: %llu rays disagree with the reference", name,
             (unsigned long long)st.mismatches);
   /* One grazing ray is allowed however small the run (sanitizer sizes). */
   CHECK_MSG(st.grazing <= MAX_GRAZING_FRACTION * st.rays || st.grazing <= 1,
             "%s: too many grazing rays", name);
   CHECK_MSG(st.rays > pixels, "%s: no AO rays traced", name);
finish:
   rt_model_finish(&m);
out:
   free(soup);
   free(rays);
   free(hits);
   free(logged_result);
   free(ao_result);
   obj_mesh_free(&mesh);
}

static bool scenes_present(void)
{
   const char *dir;
   if (rt_scenes_available(&dir))
      return true;
   printf("SKIP: no scenes directory %s\n", dir);
   return false;
}

/* cornell_tiny is symmetric about the camera's axis: in a square image the
 * pixel centres on the image diagonals (sx = +-sy) look exactly along the
 * room's corner edges and the walls' quad diagonals, so 1% of the rays hit
 * an edge exactly and their AO rays start exactly on the neighbouring wall.
 * Those are checked as grazing rays (any answer a correct test may give),
 * but to compare most rays exactly the image is 64 x 56: (2i + 1) 56 +
 * (2j + 1) 64 is odd, so no pixel centre has sx = sy. */
TEST_CASE(cornell_tiny_rays_match_reference)
{
   if (scenes_present())
      check_scene("cornell_tiny", rt_small_run() ? 24 : 64, rt_small_run() ? 20 : 56,
                  rt_small_run() ? 4 : 8);
}

TEST_CASE(teapot_rays_match_reference)
{
   if (scenes_present())
      check_scene("teapot", rt_small_run() ? 16 : 48, rt_small_run() ? 16 : 48, 4);
}

TEST_CASE(bunny_rays_match_reference)
{
   if (!scenes_present())
      return;
   if (rt_small_run()) {
      printf("SKIP: bunny's brute force is too slow under sanitizers\n");
      return;
   }
   check_scene("bunny", 32, 32, 4);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
