/* rq_shadows: ray-query hard shadows on whatever Vulkan driver the loader
 * picks. Loads a triangle mesh (the shared scenes, any OBJ, or the built-in
 * procedural scene), builds a BLAS and a TLAS (rq_ambient_occlusion's
 * accel.c), and per frame traces, in one compute dispatch, a primary ray per
 * pixel and a shadow ray from its hit towards a point light that circles
 * high in the scene as the frame number grows. Writes a grayscale PNG of
 * Lambert shading times visibility per frame, and with --dump-hits every
 * pixel's hits for the golden test (tests/raytrace/rq_shadows_golden.c).
 * See README.md.
 *
 * Exit status: 0 done, 1 failure, 2 bad command line, 77 cannot run here (no
 * device with VK_KHR_ray_query, or the scenes folder is missing) — the
 * status CTest takes as "skipped". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "ao_pass.h"
#include "camera_basis.h"
#include "obj_mesh.h"
#include "png_write.h"
#include "shadow_options.h"
#include "shadow_shader.h"

#define EXIT_SKIP 77
/* Shadow rays start this fraction of the scene diagonal off the surface: 10x
 * the AO rays' offset (scenes/README.md), since a shadow ray may leave at a
 * grazing angle, where the surface's own rounding is closer. */
#define SHADOW_ORIGIN_OFFSET 1e-4f

struct frame_stats {
   uint64_t pixels, hits, shadow_rays, lit;
};

static bool params_setup(const struct shadow_options *o, const struct obj_mesh *mesh,
                         uint32_t frame, struct shadow_push_constants *pc)
{
   memset(pc, 0, sizeof(*pc));
   if (!camera_basis(o->choice.eye, o->choice.look_at, o->choice.fov_degrees, pc->forward,
                     pc->right, pc->up))
      return false;
   /* The scenes' convention is for square images; wider ones keep the
    * vertical fov and widen the horizontal one. */
   float aspect = (float)o->width / (float)o->height;
   for (int i = 0; i < 3; i++)
      pc->right[i] *= aspect;
   memcpy(pc->eye, o->choice.eye, sizeof(pc->eye));
   pc->origin_offset = SHADOW_ORIGIN_OFFSET * obj_mesh_diagonal(mesh);
   shadow_light_position(o, mesh, frame, pc->light);
   pc->ambient = o->ambient;
   pc->width = o->width;
   pc->height = o->height;
   return true;
}

/* Statistics and the image: round(255 * radiance^(1/2.2)), black where the
 * primary ray missed. */
static void shade(const struct shadow_pixel *px, uint64_t count, uint8_t *image,
                  struct frame_stats *s)
{
   memset(s, 0, sizeof(*s));
   s->pixels = count;
   for (uint64_t i = 0; i < count; i++) {
      float radiance = fminf(fmaxf(px[i].radiance, 0.0f), 1.0f);
      image[i] = (uint8_t)lround(255.0 * pow(radiance, 1.0 / 2.2));
      s->hits += px[i].state != SHADOW_STATE_MISS;
      s->shadow_rays += px[i].state == SHADOW_STATE_LIT || px[i].state == SHADOW_STATE_SHADOWED;
      s->lit += px[i].state == SHADOW_STATE_LIT;
   }
}

static bool dump_hits(const char *path, uint32_t frame, const struct shadow_push_constants *pc,
                      const struct shadow_pixel *px, uint64_t count)
{
   struct shadow_dump_header h = {.version = SHADOW_DUMP_VERSION, .frame = frame, .params = *pc};
   memcpy(h.magic, SHADOW_DUMP_MAGIC, sizeof(h.magic));
   FILE *f = fopen(path, "wb");
   bool ok = f && fwrite(&h, sizeof(h), 1, f) == 1 && fwrite(px, sizeof(*px), count, f) == count;
   if (f && fclose(f) != 0)
      ok = false;
   if (!ok)
      fprintf(stderr, "%s: cannot write %s\n", RQ_TAG, path);
   return ok;
}

static void print_build(const struct rq_scene *scene)
{
   const char *clock = scene->timed_on_gpu ? "timestamps" : "host clock";
   printf("%s: BLAS build %.3f ms (%s), %llu bytes; TLAS build %.3f ms, %llu bytes\n", RQ_TAG,
          scene->blas_seconds * 1e3, clock, (unsigned long long)scene->blas_bytes,
          scene->tlas_seconds * 1e3, (unsigned long long)scene->tlas_bytes);
}

/* Traces, reports and writes one frame. */
static bool run_frame(struct rq_context *ctx, const struct obj_mesh *mesh,
                      const struct shadow_options *o, struct ao_pass *pass, uint32_t frame,
                      uint8_t *image)
{
   struct shadow_push_constants pc;
   if (!params_setup(o, mesh, frame, &pc)) {
      fprintf(stderr, "%s: degenerate camera (eye = look-at, or looking along +-Y)\n", RQ_TAG);
      return false;
   }
   double seconds = 0;
   bool on_gpu = false;
   if (ao_pass_dispatch(ctx, pass, &pc, o->width, o->height, &seconds, &on_gpu) != VK_SUCCESS)
      return false;
   const struct shadow_pixel *px = pass->result.map;
   struct frame_stats s;
   shade(px, (uint64_t)o->width * o->height, image, &s);
   printf("%s: frame %u: light (%.4g, %.4g, %.4g): hit fraction %.4f, lit fraction of hits "
          "%.4f\n",
          RQ_TAG, frame, (double)pc.light[0], (double)pc.light[1], (double)pc.light[2],
          (double)s.hits / (double)s.pixels, s.hits ? (double)s.lit / (double)s.hits : 0.0);
   if (o->benchmark) {
      double rays = (double)(s.pixels + s.shadow_rays);
      printf("%s: frame %u: trace %.3f ms (%s): %llu primary + %llu shadow rays = %.2f "
             "Mrays/s\n",
             RQ_TAG, frame, seconds * 1e3, on_gpu ? "timestamps" : "host clock",
             (unsigned long long)s.pixels, (unsigned long long)s.shadow_rays,
             seconds > 0 ? rays / seconds * 1e-6 : 0.0);
   }
   char path[4096];
   if (o->dump_hits) {
      shadow_options_frame_path(o, o->dump_hits, frame, path, sizeof(path));
      if (!dump_hits(path, frame, &pc, px, s.pixels))
         return false;
   }
   shadow_options_frame_path(o, o->output, frame, path, sizeof(path));
   if (!png_gray_write(path, image, o->width, o->height))
      return false;
   printf("%s: wrote %s\n", RQ_TAG, path);
   return true;
}

/* Builds the scene and renders every frame. Returns the exit status. */
static int run(struct rq_context *ctx, const struct obj_mesh *mesh, const struct shadow_options *o)
{
   struct rq_scene scene;
   struct ao_pass pass = {0};
   uint64_t pixels = (uint64_t)o->width * o->height;
   VkResult r = rq_scene_build(ctx, mesh, RQ_BUILD_DEVICE, false, &scene);
   if (r == VK_SUCCESS)
      r = ao_pass_create_sized(ctx, RQ_SHADOWS_SPV, &scene, pixels * sizeof(struct shadow_pixel),
                               sizeof(struct shadow_push_constants), &pass);
   if (r == VK_TIMEOUT)
      return 1; /* the device may still use everything: leave it */
   printf("%s: %s: %s, %u triangles, %ux%u\n", RQ_TAG, ctx->properties.deviceName,
          o->choice.scene ? o->choice.scene->name : o->choice.mesh_path, mesh->triangle_count,
          o->width, o->height);
   if (r == VK_SUCCESS && o->benchmark)
      print_build(&scene);
   uint8_t *image = malloc(pixels);
   bool ok = r == VK_SUCCESS && image;
   for (uint32_t f = 0; ok && f < o->frames; f++)
      ok = run_frame(ctx, mesh, o, &pass, o->frame + f, image);
   free(image);
   ao_pass_destroy(ctx, &pass);
   rq_scene_destroy(ctx, &scene);
   return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
   struct shadow_options o;
   int status = shadow_options_parse(argc, argv, &o);
   if (status)
      return status;
   struct obj_mesh mesh;
   if (!scene_choice_load(&o.choice, RQ_TAG, &mesh))
      return 1;

   struct rq_context ctx;
   VkResult r = rq_context_init(&ctx, o.validate);
   if (r == VK_ERROR_EXTENSION_NOT_PRESENT) {
      printf("%s: SKIP: no Vulkan device with VK_KHR_ray_query here\n", RQ_TAG);
      status = EXIT_SKIP;
   } else {
      status = r == VK_SUCCESS ? run(&ctx, &mesh, &o) : 1;
   }
   if (ctx.inst.error_messages) {
      fprintf(stderr, "%s: %u validation error messages\n", RQ_TAG, ctx.inst.error_messages);
      status = 1;
   }
   rq_context_finish(&ctx);
   obj_mesh_free(&mesh);
   return status;
}
