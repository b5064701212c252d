/* rq_ambient_occlusion: ray-query ambient occlusion, the workload of the
 * MICRO 2021 ray-intersection-predictor paper, on whatever Vulkan driver the
 * loader picks. Loads a triangle mesh (the shared scenes or any OBJ), builds
 * a BLAS and a TLAS, traces one primary ray and --spp AO rays per pixel in a
 * compute shader with rayQueryEXT, prints the hit fraction and the mean AO,
 * and writes a grayscale PNG. See README.md for the options.
 *
 * Exit status: 0 done (and every --expect check held), 1 failure, 2 bad
 * command line, 77 cannot run here (no device with VK_KHR_ray_query, or the
 * scenes folder is missing) — the status CTest takes as "skipped". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ao_options.h"
#include "ao_pass.h"
#include "camera_basis.h"
#include "obj_mesh.h"
#include "png_write.h"

#define EXIT_SKIP 77

struct ao_stats {
   uint64_t pixels, hits;
   uint64_t escaped; /* AO rays that hit nothing, over all hit pixels */
   double hit_fraction, mean_ao;
};

/* The camera convention of ../shared/scenes/README.md (camera_basis.h). */
static bool camera_setup(const struct ao_options *o, float diagonal, struct ao_push_constants *pc)
{
   memset(pc, 0, sizeof(*pc));
   if (!camera_basis(o->choice.eye, o->choice.look_at, o->choice.fov_degrees, pc->forward,
                     pc->right, pc->up))
      return false;
   memcpy(pc->eye, o->choice.eye, sizeof(pc->eye));
   pc->ao_radius = o->ao_radius;
   pc->scene_diagonal = diagonal;
   pc->width = o->width;
   pc->height = o->height;
   pc->spp = o->spp;
   return true;
}

/* Statistics and the image: pixel = round(255 * ao^(1/2.2)), ao the
 * unoccluded fraction, black where the primary ray missed — the convention
 * of the scenes' preview images. */
static void shade(const uint32_t *result, const struct ao_options *o, uint8_t *image,
                  struct ao_stats *s)
{
   memset(s, 0, sizeof(*s));
   s->pixels = (uint64_t)o->width * o->height;
   for (uint64_t i = 0; i < s->pixels; i++) {
      if (result[i] == AO_MISSED) {
         image[i] = 0;
         continue;
      }
      uint32_t escaped = result[i] <= o->spp ? result[i] : o->spp; /* a driver bug, not a crash */
      s->hits++;
      s->escaped += escaped;
      double ao = (double)escaped / o->spp;
      image[i] = (uint8_t)lround(255.0 * pow(ao, 1.0 / 2.2));
   }
   s->hit_fraction = (double)s->hits / (double)s->pixels;
   s->mean_ao = s->hits ? (double)s->escaped / ((double)s->hits * o->spp) : 0.0;
}

static bool check(const char *what, double got, double want, double tolerance)
{
   if (isnan(want))
      return true;
   bool ok = fabs(got - want) <= tolerance;
   printf("%s: check %s %.4f, expected %.4f +- %.4f: %s\n", RQ_TAG, what, got, want, tolerance,
          ok ? "ok" : "FAILED");
   return ok;
}

static void print_benchmark(const struct rq_scene *scene, const struct ao_stats *s,
                            const struct ao_options *o, double trace_seconds, bool trace_on_gpu)
{
   const char *build = o->host_build ? "host" : "device";
   const char *clock = scene->timed_on_gpu ? "timestamps" : "host clock";
   printf("%s: BLAS build (%s) %.3f ms (%s), %llu bytes", RQ_TAG, build, scene->blas_seconds * 1e3,
          clock, (unsigned long long)scene->blas_bytes);
   if (o->compact)
      printf("; compacted to %llu bytes in %.3f ms",
             (unsigned long long)scene->blas_compacted_bytes, scene->compact_seconds * 1e3);
   printf("\n%s: TLAS build (%s) %.3f ms (%s), %llu bytes\n", RQ_TAG, build,
          scene->tlas_seconds * 1e3, clock, (unsigned long long)scene->tlas_bytes);
   uint64_t ao_rays = s->hits * o->spp;
   double rays = (double)(s->pixels + ao_rays);
   printf("%s: trace %.3f ms (%s): %llu primary + %llu AO rays = %.2f Mrays/s\n", RQ_TAG,
          trace_seconds * 1e3, trace_on_gpu ? "timestamps" : "host clock",
          (unsigned long long)s->pixels, (unsigned long long)ao_rays,
          trace_seconds > 0 ? rays / trace_seconds * 1e-6 : 0.0);
}

/* Builds, traces, reports and writes the image. Returns the exit status. */
static int run(struct rq_context *ctx, const struct obj_mesh *mesh, const struct ao_options *o)
{
   struct ao_push_constants pc;
   if (!camera_setup(o, obj_mesh_diagonal(mesh), &pc)) {
      fprintf(stderr, "%s: degenerate camera (eye = look-at, or looking along +-Y)\n", RQ_TAG);
      return 1;
   }
   struct rq_scene scene;
   struct ao_pass pass = {0};
   double trace_seconds = 0;
   bool trace_on_gpu = false;
   VkResult r = rq_scene_build(ctx, mesh, o->host_build ? RQ_BUILD_HOST : RQ_BUILD_DEVICE,
                               o->compact, &scene);
   if (r == VK_SUCCESS)
      r = ao_pass_create(ctx, RQ_AO_SPV, &scene, o->width, o->height, &pass);
   if (r == VK_SUCCESS)
      r = ao_pass_run(ctx, &pass, &pc, &trace_seconds, &trace_on_gpu);
   if (r == VK_TIMEOUT)
      return 1; /* the device may still use everything: leave it */
   int status = 1;
   uint8_t *image = r == VK_SUCCESS ? malloc((size_t)o->width * o->height) : NULL;
   if (image) {
      struct ao_stats s;
      shade(pass.result.map, o, image, &s);
      printf("%s: %s: %s, %u triangles, %ux%u, %u AO rays per pixel, AO radius %g\n", RQ_TAG,
             ctx->properties.deviceName,
             o->choice.scene ? o->choice.scene->name : o->choice.mesh_path, mesh->triangle_count,
             o->width, o->height, o->spp, (double)o->ao_radius);
      printf("%s: hit fraction %.4f, mean AO %.4f (unoccluded fraction over hit pixels)\n", RQ_TAG,
             s.hit_fraction, s.mean_ao);
      const struct scene_camera *cam = o->choice.scene;
      if (cam && cam->file)
         printf("%s: README reference (512x512, 16 rays per pixel): hit %.3f, mean AO %.3f\n",
                RQ_TAG, (double)cam->reference_hit_fraction, (double)cam->reference_mean_ao);
      if (o->benchmark)
         print_benchmark(&scene, &s, o, trace_seconds, trace_on_gpu);
      bool written = png_gray_write(o->output, image, o->width, o->height);
      if (written)
         printf("%s: wrote %s\n", RQ_TAG, o->output);
      bool ok = check("mean AO", s.mean_ao, o->expect_mean_ao, o->tolerance);
      ok = check("hit fraction", s.hit_fraction, o->expect_hit_fraction, o->tolerance) && ok;
      status = written && ok ? 0 : 1;
      free(image);
   } else if (r == VK_SUCCESS) {
      fprintf(stderr, "%s: out of memory for the image\n", RQ_TAG);
   }
   ao_pass_destroy(ctx, &pass);
   rq_scene_destroy(ctx, &scene);
   return status;
}

int main(int argc, char **argv)
{
   struct ao_options o;
   int status = ao_options_parse(argc, argv, &o);
   if (status)
      return status;
   struct obj_mesh mesh;
   double load_start = rq_host_seconds();
   if (!scene_choice_load(&o.choice, RQ_TAG, &mesh))
      return 1;
   if (o.benchmark)
      printf("%s: loaded %s in %.3f s\n", RQ_TAG, o.choice.mesh_path,
             rq_host_seconds() - load_start);
   if (o.ao_fraction > 0)
      o.ao_radius = o.ao_fraction * obj_mesh_diagonal(&mesh);

   struct rq_context ctx;
   VkResult r = rq_context_init(&ctx, o.validate);
   if (r == VK_ERROR_EXTENSION_NOT_PRESENT) {
      printf("%s: SKIP: no Vulkan device with VK_KHR_ray_query here\n", RQ_TAG);
      status = EXIT_SKIP;
   } else if (r != VK_SUCCESS) {
      status = 1;
   } else if (o.host_build && !ctx.host_commands) {
      fprintf(stderr, "%s: --host-build: %s lacks accelerationStructureHostCommands\n", RQ_TAG,
              ctx.properties.deviceName);
      status = 1;
   } else {
      status = run(&ctx, &mesh, &o);
   }
   if (ctx.inst.error_messages) {
      fprintf(stderr, "%s: %u validation error messages\n", RQ_TAG, ctx.inst.error_messages);
      status = 1;
   }
   rq_context_finish(&ctx);
   obj_mesh_free(&mesh);
   return status;
}
