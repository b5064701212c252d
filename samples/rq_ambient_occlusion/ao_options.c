#include "ao_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq_context.h"

static void usage(const char *argv0)
{
   fprintf(stderr,
           "usage: %s [--scene NAME | --obj FILE --eye X,Y,Z --look-at X,Y,Z --fov DEG "
           "--ao-radius R | --ao-fraction F]\n"
           "          [--scenes-dir DIR] [--width N] [--height N] [--spp N] [--output FILE.png]\n"
           "          [--validate] [--benchmark] [--device-build | --host-build] [--compact]\n"
           "          [--expect-mean-ao A] [--expect-hit-fraction H] [--tolerance T]\n"
           "scenes:",
           argv0);
   for (size_t i = 0; i < scene_catalog_count(); i++)
      fprintf(stderr, " %s", scene_catalog_at(i)->name);
   fprintf(stderr, "\n(with --scene, --eye, --look-at, --fov and --ao-radius override the "
                   "scene's camera)\n");
}

static bool parse_double(const char *s, double lo, double hi, double *out)
{
   char *end = NULL;
   double v = strtod(s, &end);
   if (!s[0] || *end || !(v >= lo && v <= hi))
      return false;
   *out = v;
   return true;
}

static bool parse_float(const char *s, double lo, double hi, float *out)
{
   double v;
   if (!parse_double(s, lo, hi, &v))
      return false;
   *out = (float)v;
   return true;
}

/* "x,y,z" */
static bool parse_vec3(const char *s, float *out)
{
   for (int i = 0; i < 3; i++) {
      char *end = NULL;
      double v = strtod(s, &end);
      if (end == s || !isfinite(v) || fabs(v) > 1e30 || *end != (i < 2 ? ',' : '\0'))
         return false;
      out[i] = (float)v;
      s = end + 1;
   }
   return true;
}

/* Camera values given on the command line, which win over the scene's. */
struct camera_given {
   bool eye, look_at, fov, radius;
};

static bool parse_one(const char *a, const char *v, struct ao_options *o, struct camera_given *g,
                      const char **scene_name, const char **obj)
{
   if (!strcmp(a, "--scene"))
      *scene_name = v;
   else if (!strcmp(a, "--scenes-dir"))
      o->scenes_dir = v;
   else if (!strcmp(a, "--obj"))
      *obj = v;
   else if (!strcmp(a, "--eye"))
      return g->eye = parse_vec3(v, o->eye);
   else if (!strcmp(a, "--look-at"))
      return g->look_at = parse_vec3(v, o->look_at);
   else if (!strcmp(a, "--fov"))
      return g->fov = parse_float(v, 0.01, 179.0, &o->fov_degrees);
   else if (!strcmp(a, "--ao-radius"))
      return g->radius = parse_float(v, 1e-30, 1e30, &o->ao_radius);
   else if (!strcmp(a, "--ao-fraction"))
      return g->radius = parse_float(v, 1e-6, 1.0, &o->ao_fraction);
   else if (!strcmp(a, "--width"))
      return vk_sample_parse_u32(v, 1, 16384, &o->width);
   else if (!strcmp(a, "--height"))
      return vk_sample_parse_u32(v, 1, 16384, &o->height);
   else if (!strcmp(a, "--spp"))
      return vk_sample_parse_u32(v, 1, 4096, &o->spp);
   else if (!strcmp(a, "--output"))
      o->output = v;
   else if (!strcmp(a, "--expect-mean-ao"))
      return parse_double(v, 0, 1, &o->expect_mean_ao);
   else if (!strcmp(a, "--expect-hit-fraction"))
      return parse_double(v, 0, 1, &o->expect_hit_fraction);
   else if (!strcmp(a, "--tolerance"))
      return parse_double(v, 0, 1, &o->tolerance);
   else
      return false;
   return true;
}

/* Where the shared scenes are: --scenes-dir, else $VKPPU_SCENES_DIR, else
 * the folder the build was configured with. */
static const char *default_scenes_dir(void)
{
   const char *env = getenv("VKPPU_SCENES_DIR");
   return env && env[0] ? env : RQ_DEFAULT_SCENES_DIR;
}

int ao_options_parse(int argc, char **argv, struct ao_options *o)
{
   memset(o, 0, sizeof(*o));
   o->width = o->height = 1024; /* the paper's and the README's resolution */
   o->spp = 4;                  /* the paper's AO rays per pixel */
   o->output = "ao.png";
   o->expect_mean_ao = o->expect_hit_fraction = NAN;
   o->tolerance = 0.02;
   struct camera_given given = {0};
   const char *scene_name = NULL, *obj = NULL;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      bool *flag = !strcmp(a, "--validate")       ? &o->validate
                   : !strcmp(a, "--benchmark")    ? &o->benchmark
                   : !strcmp(a, "--compact")      ? &o->compact
                   : !strcmp(a, "--host-build")   ? &o->host_build
                   : !strcmp(a, "--device-build") ? &o->host_build
                                                  : NULL;
      if (flag) {
         *flag = strcmp(a, "--device-build") != 0;
         continue;
      }
      if (i + 1 >= argc || !parse_one(a, argv[i + 1], o, &given, &scene_name, &obj)) {
         if (i + 1 < argc)
            fprintf(stderr, "%s: bad option or value: %s %s\n", RQ_TAG, a, argv[i + 1]);
         usage(argv[0]);
         return 2;
      }
      i++;
   }
   if (scene_name && obj) {
      fprintf(stderr, "%s: --scene and --obj exclude each other\n", RQ_TAG);
      return 2;
   }
   if (!o->scenes_dir)
      o->scenes_dir = default_scenes_dir();
   if (obj) {
      if (!given.eye || !given.look_at || !given.fov || !given.radius) {
         fprintf(stderr,
                 "%s: --obj needs --eye, --look-at, --fov and --ao-radius (or --ao-fraction)\n",
                 RQ_TAG);
         return 2;
      }
      snprintf(o->mesh_path, sizeof(o->mesh_path), "%s", obj);
      return 0;
   }
   o->scene_defaulted = scene_name == NULL;
   o->scene = scene_catalog_find(scene_name ? scene_name : "cornell_tiny");
   if (!o->scene) {
      fprintf(stderr, "%s: unknown scene '%s'\n", RQ_TAG, scene_name);
      usage(argv[0]);
      return 2;
   }
   if (!given.eye)
      memcpy(o->eye, o->scene->eye, sizeof(o->eye));
   if (!given.look_at)
      memcpy(o->look_at, o->scene->look_at, sizeof(o->look_at));
   if (!given.fov)
      o->fov_degrees = o->scene->fov_degrees;
   if (!given.radius)
      o->ao_radius = o->scene->ao_radius;
   ao_options_set_mesh_path(o);
   return 0;
}

bool ao_options_use_scene(struct ao_options *o, const char *name)
{
   const struct scene_camera *scene = scene_catalog_find(name);
   if (!scene)
      return false;
   o->scene = scene;
   memcpy(o->eye, o->scene->eye, sizeof(o->eye));
   memcpy(o->look_at, o->scene->look_at, sizeof(o->look_at));
   o->fov_degrees = o->scene->fov_degrees;
   o->ao_radius = o->scene->ao_radius;
   ao_options_set_mesh_path(o);
   return true;
}

void ao_options_set_mesh_path(struct ao_options *o)
{
   if (o->scene->file)
      snprintf(o->mesh_path, sizeof(o->mesh_path), "%s/%s", o->scenes_dir, o->scene->file);
   else
      snprintf(o->mesh_path, sizeof(o->mesh_path), "(built-in %s scene)", o->scene->name);
}
