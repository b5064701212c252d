/* rq_path_tracer: a small compute path tracer with ray queries on whatever
 * Vulkan driver the loader picks. Loads a triangle mesh (the shared scenes,
 * any OBJ, or the built-in procedural scene), builds a BLAS and a TLAS
 * (rq_ambient_occlusion's accel.c), and traces, in one compute dispatch of
 * shaders/path_tracer.comp, --spp paths per pixel of up to --bounces diffuse
 * bounces lit by a sky and by the scene's top triangles. Writes a
 * tone-mapped RGB PNG and prints the mean radiance, which --expect-mean
 * checks. See README.md.
 *
 * Exit status: 0 done (and --expect-mean held), 1 failure, 2 bad command
 * line, 77 cannot run here (no device with VK_KHR_ray_query, or the scenes
 * folder is missing) — the status CTest takes as "skipped". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "ao_pass.h"
#include "camera_basis.h"
#include "obj_mesh.h"
#include "png_write.h"
#include "pt_options.h"
#include "pt_shader.h"

#define EXIT_SKIP 77
/* Bounce origins start this fraction of the scene diagonal off the surface,
 * as rq_shadows' shadow rays: a bounce may leave at a grazing angle. */
#define PT_ORIGIN_OFFSET 1e-4f
/* Emitters: triangles whose corners all lie within this fraction of the
 * diagonal under the top of the bounding box (a room's ceiling). */
#define PT_EMITTER_BAND 1e-4f

struct image_stats {
   double mean_radiance; /* over pixels, of (R + G + B) / 3, linear */
   uint64_t rays;
};

static bool params_setup(const struct pt_options *o, const struct obj_mesh *mesh,
                         struct pt_push_constants *pc)
{
   memset(pc, 0, sizeof(*pc));
   if (!camera_basis(o->choice.eye, o->choice.look_at, o->choice.fov_degrees, pc->forward,
                     pc->right, pc->up)) {
      fprintf(stderr, "%s: no camera basis: the eye is the look-at point, or looks along +-Y\n",
              RQ_TAG);
      return false;
   }
   /* Non-square images keep the vertical fov (the scenes' convention is
    * for square ones). */
   float aspect = (float)o->width / (float)o->height;
   for (int i = 0; i < 3; i++) {
      pc->right[i] *= aspect;
      pc->eye[i] = o->choice.eye[i];
   }
   float diagonal = obj_mesh_diagonal(mesh);
   pc->origin_offset = PT_ORIGIN_OFFSET * diagonal;
   pc->albedo = o->albedo;
   pc->emission = o->emission;
   pc->emitter_min_y = mesh->bounds_max[1] - PT_EMITTER_BAND * diagonal;
   pc->width = o->width;
   pc->height = o->height;
   pc->spp = o->spp;
   pc->bounces = o->bounces;
   return true;
}

/* Reinhard (x / (1 + x)) per channel, then gamma 2.2, to 8 bits. */
static uint8_t tone_map(float radiance)
{
   double x = radiance > 0.0f ? (double)radiance : 0.0;
   return (uint8_t)lround(255.0 * pow(x / (1.0 + x), 1.0 / 2.2));
}

static void develop(const struct pt_pixel *px, uint64_t count, uint8_t *rgba, struct image_stats *s)
{
   double sum = 0;
   s->rays = 0;
   for (uint64_t i = 0; i < count; i++) {
      for (int c = 0; c < 3; c++) {
         sum += px[i].radiance[c];
         rgba[4 * i + c] = tone_map(px[i].radiance[c]);
      }
      rgba[4 * i + 3] = 255;
      s->rays += px[i].rays;
   }
   s->mean_radiance = count ? sum / (3.0 * (double)count) : 0.0;
}

static void print_benchmark(const struct rq_scene *scene, const struct image_stats *s,
                            double seconds, bool on_gpu)
{
   printf("%s: BLAS build %.3f ms, %llu bytes; TLAS build %.3f ms (%s)\n", RQ_TAG,
          scene->blas_seconds * 1e3, (unsigned long long)scene->blas_bytes,
          scene->tlas_seconds * 1e3, scene->timed_on_gpu ? "timestamps" : "host clock");
   printf("%s: trace %.3f ms (%s): %llu rays = %.3f Mrays/s\n", RQ_TAG, seconds * 1e3,
          on_gpu ? "timestamps" : "host clock", (unsigned long long)s->rays,
          seconds > 0 ? (double)s->rays / seconds * 1e-6 : 0.0);
}

/* Traces the image, reports, checks and writes it. */
static bool trace_and_write(struct rq_context *ctx, const struct obj_mesh *mesh,
                            const struct pt_options *o, const struct rq_scene *scene,
                            struct ao_pass *pass)
{
   struct pt_push_constants pc;
   double seconds = 0;
   bool on_gpu = false;
   if (!params_setup(o, mesh, &pc) ||
       ao_pass_dispatch(ctx, pass, &pc, o->width, o->height, &seconds, &on_gpu) != VK_SUCCESS)
      return false;
   uint64_t pixels = (uint64_t)o->width * o->height;
   uint8_t *rgba = malloc(4 * pixels);
   if (!rgba)
      return false;
   struct image_stats s;
   develop(pass->result.map, pixels, rgba, &s);
   printf("%s: %u spp, %u bounces: mean radiance %.4f\n", RQ_TAG, o->spp, o->bounces,
          s.mean_radiance);
   if (o->benchmark)
      print_benchmark(scene, &s, seconds, on_gpu);
   bool ok = png_rgba_write(o->output, rgba, o->width, o->height);
   free(rgba);
   if (ok)
      printf("%s: wrote %s\n", RQ_TAG, o->output);
   if (o->expect_mean_given) {
      bool within = fabs(s.mean_radiance - o->expect_mean) <= o->tolerance;
      printf("%s: check mean radiance %.4f, expected %.4f +- %.4f: %s\n", RQ_TAG, s.mean_radiance,
             o->expect_mean, o->tolerance, within ? "ok" : "FAILED");
      ok = ok && within;
   }
   return ok;
}

/* On a device: the acceleration structures and the pass, then the image.
 * Returns the exit status. */
static int render_scene(struct rq_context *ctx, const struct obj_mesh *mesh,
                        const struct pt_options *o)
{
   printf("%s: %s: %s, %u triangles, %ux%u\n", RQ_TAG, ctx->properties.deviceName,
          o->choice.scene ? o->choice.scene->name : o->choice.mesh_path, mesh->triangle_count,
          o->width, o->height);
   struct rq_scene scene;
   VkResult r = rq_scene_build(ctx, mesh, RQ_BUILD_DEVICE, false, &scene);
   struct ao_pass pass = {0};
   if (r == VK_SUCCESS) {
      VkDeviceSize bytes = (VkDeviceSize)o->width * o->height * sizeof(struct pt_pixel);
      r = ao_pass_create_sized(ctx, RQ_PATH_TRACER_SPV, &scene, bytes,
                               sizeof(struct pt_push_constants), &pass);
   }
   /* After a timeout the device may still use everything: leave it. */
   if (r == VK_TIMEOUT)
      return 1;
   int status = r == VK_SUCCESS && trace_and_write(ctx, mesh, o, &scene, &pass) ? 0 : 1;
   ao_pass_destroy(ctx, &pass);
   rq_scene_destroy(ctx, &scene);
   return status;
}

/* The first device with ray queries, or exit 77 without one. Validation
 * errors (--validate) fail a run that would otherwise pass. */
static int render(const struct obj_mesh *mesh, const struct pt_options *o)
{
   struct rq_context ctx;
   int status = 1;
   switch (rq_context_init(&ctx, o->validate)) {
   case VK_SUCCESS:
      status = render_scene(&ctx, mesh, o);
      break;
   case VK_ERROR_EXTENSION_NOT_PRESENT: /* rq_context_init said why */
      printf("%s: SKIP\n", RQ_TAG);
      status = EXIT_SKIP;
      break;
   default:
      break;
   }
   uint32_t errors = ctx.inst.error_messages;
   if (errors != 0) {
      fprintf(stderr, "%s: %u validation error messages\n", RQ_TAG, errors);
      status = 1;
   }
   rq_context_finish(&ctx);
   return status;
}

int main(int argc, char **argv)
{
   struct pt_options o;
   struct obj_mesh mesh;
   int status = pt_options_parse(argc, argv, &o);
   if (status == 0 && !scene_choice_load(&o.choice, RQ_TAG, &mesh))
      status = 1;
   else if (status == 0) {
      status = render(&mesh, &o);
      obj_mesh_free(&mesh);
   }
   return status;
}
