/* The golden test of samples/rq_shadows: its primary and shadow rays, traced
 * by whatever Vulkan driver the loader picks, agree with the brute-force
 * binary64 CPU caster (rt_reference.c) on the same rays.
 *
 * It runs the sample with --dump-hits, which writes the push constants (the
 * camera basis and the light, as binary32 exactly as pushed) and per pixel
 * the primary hit (primitive, t), the shadow ray's state and its origin
 * (shadow_shader.h). Then per pixel:
 *
 * - Primary ray: rebuilt here from the dumped camera with the shader's own
 *   binary32 expressions in the shader's order (primary_direction below;
 *   this file is built with -ffp-contract=off so that no multiply-add is
 *   fused, as SPIR-V leaves it to the driver). A driver may still round
 *   normalize() differently by an ulp or fuse where we do not; that moves
 *   the ray by about 1e-7 relative, far inside the reference's edge margin.
 * - Shadow ray: from the dumped origin (the shader computed it from its own
 *   hit, whose t is checked) along light - origin, one binary32 subtraction
 *   per coordinate here as there, t in [0, 1].
 *
 * Hit/miss must agree exactly, and for primary rays the primitive too, with
 * t within T_RELATIVE. The exceptions are rays the reference calls grazing
 * (within RT_REF_EDGE_EPS of an edge or of another answer: rt_reference.h),
 * where a correct binary32 traversal may answer otherwise; they are
 * excluded, counted, printed and must stay under MAX_EXCLUDED_FRACTION. A
 * shadow ray counts as grazing only when the answer (occluded or not) could
 * change: some triangle is hit for sure, or none is even borderline.
 *
 * Usage: rq_shadows_golden --sample PATH --scene NAME --width W --height H
 *        --frame N --work-dir DIR [--scenes-dir DIR]
 * Exit status: 0 agreement, 1 disagreement or failure, 77 skipped (the
 * sample skipped: no ray-query device, or no scenes folder). */
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "obj_mesh.h"
#include "procedural_scene.h"
#include "rt_reference.h"
#include "scene_catalog.h"
#include "shadow_shader.h"

#define EXIT_SKIP 77
#define T_RELATIVE 1e-5
#define MAX_EXCLUDED_FRACTION 0.001
#define MAX_PRINTED 8

extern char **environ;

struct args {
   const char *sample, *scene, *width, *height, *frame, *work_dir, *scenes_dir;
};

struct tally {
   uint64_t primary, shadow;                   /* rays checked */
   uint64_t primary_excluded, shadow_excluded; /* grazing */
   uint64_t failures;
   double max_t_error; /* relative, over non-grazing primary hits */
};

static bool parse_args(int argc, char **argv, struct args *a)
{
   memset(a, 0, sizeof(*a));
   a->scenes_dir = VKPPU_SCENES_DIR;
   for (int i = 1; i + 1 < argc; i += 2) {
      const char *k = argv[i], *v = argv[i + 1];
      const char **slot = !strcmp(k, "--sample")       ? &a->sample
                          : !strcmp(k, "--scene")      ? &a->scene
                          : !strcmp(k, "--width")      ? &a->width
                          : !strcmp(k, "--height")     ? &a->height
                          : !strcmp(k, "--frame")      ? &a->frame
                          : !strcmp(k, "--work-dir")   ? &a->work_dir
                          : !strcmp(k, "--scenes-dir") ? &a->scenes_dir
                                                       : NULL;
      if (!slot)
         return false;
      *slot = v;
   }
   return argc % 2 == 1 && a->sample && a->scene && a->width && a->height && a->frame &&
          a->work_dir;
}

/* Runs the sample; returns its exit status, or -1. */
static int run_sample(const struct args *a, const char *dump, const char *png)
{
   char *argv[] = {(char *)a->sample,
                   "--scene",
                   (char *)a->scene,
                   "--scenes-dir",
                   (char *)a->scenes_dir,
                   "--width",
                   (char *)a->width,
                   "--height",
                   (char *)a->height,
                   "--frame",
                   (char *)a->frame,
                   "--validate",
                   "--dump-hits",
                   (char *)dump,
                   "--output",
                   (char *)png,
                   NULL};
   pid_t pid;
   int status;
   if (posix_spawn(&pid, a->sample, NULL, NULL, argv, environ) != 0) {
      perror(a->sample);
      return -1;
   }
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
      return -1;
   return WEXITSTATUS(status);
}

static void *read_dump(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   void *data = n > 0 ? malloc((size_t)n) : NULL;
   if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
   }
   fclose(f);
   *size = data ? (size_t)n : 0;
   return data;
}

/* shaders/shadows.comp's primary ray direction, in binary32, in its order. */
static void primary_direction(const struct shadow_push_constants *p, uint32_t x, uint32_t y,
                              float dir[3])
{
   float sx = ((float)x + 0.5f) / (float)p->width * 2.0f - 1.0f;
   float sy = 1.0f - ((float)y + 0.5f) / (float)p->height * 2.0f;
   for (int i = 0; i < 3; i++)
      dir[i] = (p->forward[i] + sx * p->right[i]) + sy * p->up[i];
   float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
   for (int i = 0; i < 3; i++)
      dir[i] /= len;
}

static void report(struct tally *t, uint32_t pixel, const char *what, const char *why,
                   const struct shadow_pixel *px, const struct rt_ref_hit *ref)
{
   if (t->failures++ < MAX_PRINTED)
      printf("  MISMATCH pixel %u %s: %s: device prim %d t %.9g state %u; reference hit %d "
             "prim %d t %.9g\n",
             pixel, what, why, (int)px->primitive, (double)px->t, px->state, ref->hit,
             (int)ref->primitive, ref->t);
}

static void check_primary(const float *soup, uint32_t count, const struct shadow_push_constants *p,
                          uint32_t pixel, const struct shadow_pixel *px, struct tally *t)
{
   float dir[3];
   primary_direction(p, pixel % p->width, pixel / p->width, dir);
   struct rt_ref_ray ray = {.tmin = 0, .tmax = 1e30};
   for (int i = 0; i < 3; i++) {
      ray.origin[i] = p->eye[i];
      ray.direction[i] = dir[i];
   }
   struct rt_ref_hit ref;
   rt_ref_trace(soup, count, &ray, &ref);
   bool hit = px->state != SHADOW_STATE_MISS;
   t->primary++;
   if (ref.grazing) {
      t->primary_excluded++;
      return;
   }
   const char *why = NULL;
   if (hit != ref.hit)
      why = "hit/miss differs";
   else if (hit && px->primitive != ref.primitive)
      why = "primitive differs";
   else if (hit && fabs(px->t - ref.t) > T_RELATIVE * ref.t)
      why = "t differs";
   if (why)
      report(t, pixel, "primary", why, px, &ref);
   else if (hit)
      t->max_t_error = fmax(t->max_t_error, fabs(px->t - ref.t) / ref.t);
}

static void check_shadow(const float *soup, uint32_t count, const struct shadow_push_constants *p,
                         uint32_t pixel, const struct shadow_pixel *px, struct tally *t)
{
   if (px->state != SHADOW_STATE_LIT && px->state != SHADOW_STATE_SHADOWED)
      return; /* no shadow ray was traced */
   struct rt_ref_ray ray = {.tmin = 0, .tmax = 1};
   for (int i = 0; i < 3; i++) {
      ray.origin[i] = px->shadow_origin[i];
      ray.direction[i] = p->light[i] - px->shadow_origin[i]; /* rounded as the shader does */
   }
   struct rt_ref_hit ref;
   rt_ref_trace(soup, count, &ray, &ref);
   t->shadow++;
   bool surely_occluded = ref.hit && !ref.miss_possible;
   bool surely_lit = !ref.hit && !ref.grazing;
   if (!surely_occluded && !surely_lit) {
      t->shadow_excluded++;
      return;
   }
   if (surely_occluded != (px->state == SHADOW_STATE_SHADOWED))
      report(t, pixel, "shadow", surely_occluded ? "lit, but occluded" : "occluded, but lit", px,
             &ref);
}

static bool load_mesh(const struct args *a, struct obj_mesh *mesh)
{
   const struct scene_camera *scene = scene_catalog_find(a->scene);
   if (!scene) {
      fprintf(stderr, "no scene %s\n", a->scene);
      return false;
   }
   if (!scene->file)
      return procedural_scene_build(mesh);
   char path[4096], error[512];
   snprintf(path, sizeof(path), "%s/%s", a->scenes_dir, scene->file);
   if (!obj_mesh_load(path, mesh, error, sizeof(error))) {
      fprintf(stderr, "%s\n", error);
      return false;
   }
   return true;
}

/* Checks the dump against the reference; returns the exit status. */
static int check_dump(const struct args *a, const struct shadow_dump_header *h,
                      const struct shadow_pixel *pixels)
{
   struct obj_mesh mesh;
   if (!load_mesh(a, &mesh))
      return 1;
   float *soup = obj_mesh_triangle_soup(&mesh);
   if (!soup) {
      obj_mesh_free(&mesh);
      return 1;
   }
   struct tally t = {0};
   uint32_t n = h->params.width * h->params.height;
   for (uint32_t i = 0; i < n; i++) {
      check_primary(soup, mesh.triangle_count, &h->params, i, &pixels[i], &t);
      check_shadow(soup, mesh.triangle_count, &h->params, i, &pixels[i], &t);
   }
   double excluded = (double)(t.primary_excluded + t.shadow_excluded) /
                     (double)(t.primary + t.shadow ? t.primary + t.shadow : 1);
   printf("%s frame %u, %ux%u, %u triangles: %llu primary rays (%llu grazing, excluded), %llu "
          "shadow rays (%llu grazing, excluded): excluded fraction %.5f (limit %g); max primary "
          "t error %.3g relative (limit %g); %llu mismatches\n",
          a->scene, h->frame, h->params.width, h->params.height, mesh.triangle_count,
          (unsigned long long)t.primary, (unsigned long long)t.primary_excluded,
          (unsigned long long)t.shadow, (unsigned long long)t.shadow_excluded, excluded,
          MAX_EXCLUDED_FRACTION, t.max_t_error, T_RELATIVE, (unsigned long long)t.failures);
   free(soup);
   obj_mesh_free(&mesh);
   bool ok = t.failures == 0 && excluded <= MAX_EXCLUDED_FRACTION && t.shadow > 0;
   printf("%s\n", ok ? "PASS" : "FAIL");
   return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
   struct args a;
   if (!parse_args(argc, argv, &a)) {
      fprintf(stderr,
              "usage: %s --sample PATH --scene NAME --width W --height H --frame N "
              "--work-dir DIR [--scenes-dir DIR]\n",
              argv[0]);
      return 2;
   }
   char dump[4096], png[4096];
   snprintf(dump, sizeof(dump), "%s/rq_shadows_%s_%s.hits", a.work_dir, a.scene, a.frame);
   snprintf(png, sizeof(png), "%s/rq_shadows_%s_%s.png", a.work_dir, a.scene, a.frame);
   int status = run_sample(&a, dump, png);
   if (status == EXIT_SKIP) {
      printf("SKIP: the sample skipped\n");
      return EXIT_SKIP;
   }
   if (status != 0) {
      fprintf(stderr, "FAIL: %s exited with %d\n", a.sample, status);
      return 1;
   }
   size_t size;
   struct shadow_dump_header *h = read_dump(dump, &size);
   bool valid = h && size >= sizeof(*h) && !memcmp(h->magic, SHADOW_DUMP_MAGIC, 8) &&
                h->version == SHADOW_DUMP_VERSION &&
                size == sizeof(*h) + (size_t)h->params.width * h->params.height *
                                         sizeof(struct shadow_pixel);
   if (!valid) {
      fprintf(stderr, "FAIL: %s is not a whole dump\n", dump);
      free(h);
      return 1;
   }
   status = check_dump(&a, h, (const struct shadow_pixel *)(h + 1));
   free(h);
   return status;
}
