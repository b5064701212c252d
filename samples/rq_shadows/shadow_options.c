#include "shadow_options.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vk_sample.h"

/* rq_shadows, or another sample built with these options (RQ_TAG). */
#define TAG RQ_TAG

static void usage(const char *argv0)
{
   fprintf(stderr,
           "usage: %s [--scene NAME | --obj FILE --eye X,Y,Z --look-at X,Y,Z --fov DEG]\n"
           "          [--scenes-dir DIR] [--width N] [--height N] [--frame N] [--frames K]\n"
           "          [--light-height F] [--light-radius F] [--ambient A]\n"
           "          [--output FILE.png] [--dump-hits FILE] [--validate] [--benchmark]\n"
           "scenes:",
           argv0);
   scene_choice_print_names(stderr);
   fprintf(stderr, "\n(with --scene, --eye, --look-at and --fov override the scene's camera)\n");
}

struct light_given {
   bool height, radius;
};

static bool parse_one(const char *a, const char *v, struct shadow_options *o, struct light_given *g)
{
   enum scene_choice_arg taken = scene_choice_arg(&o->choice, a, v);
   if (taken != SCENE_CHOICE_NOT_MINE)
      return taken == SCENE_CHOICE_TAKEN;
   if (!strcmp(a, "--light-height"))
      return g->height = vk_sample_parse_float(v, -10, 10, &o->light_height);
   else if (!strcmp(a, "--light-radius"))
      return g->radius = vk_sample_parse_float(v, 0, 100, &o->light_radius);
   else if (!strcmp(a, "--ambient"))
      return vk_sample_parse_float(v, 0, 1, &o->ambient);
   else if (!strcmp(a, "--width"))
      return vk_sample_parse_u32(v, 1, 16384, &o->width);
   else if (!strcmp(a, "--height"))
      return vk_sample_parse_u32(v, 1, 16384, &o->height);
   else if (!strcmp(a, "--frame"))
      return vk_sample_parse_u32(v, 0, 1000000, &o->frame);
   else if (!strcmp(a, "--frames"))
      return vk_sample_parse_u32(v, 1, 10000, &o->frames);
   else if (!strcmp(a, "--output"))
      o->output = v;
   else if (!strcmp(a, "--dump-hits"))
      o->dump_hits = v;
   else
      return false;
   return true;
}

/* Where the light circles by default: just under the ceiling of the rooms
 * (cornell_tiny: y = 9, radius 2.5), which a light above the bounding box
 * would not reach; above and around the single objects of the catalog,
 * whose tops would otherwise shade them. */
static void light_defaults(struct shadow_options *o, const struct light_given *g)
{
   static const char *const single_objects[] = {"teapot", "bunny", "dragon"};
   const struct scene_camera *scene = o->choice.scene;
   bool object = false;
   for (size_t i = 0; scene && i < sizeof(single_objects) / sizeof(single_objects[0]); i++)
      object |= !strcmp(scene->name, single_objects[i]);
   if (!g->height)
      o->light_height = object ? 1.6f : 0.9f;
   if (!g->radius)
      o->light_radius = object ? 1.2f : 0.5f;
}

int shadow_options_parse(int argc, char **argv, struct shadow_options *o)
{
   memset(o, 0, sizeof(*o));
   o->width = 1024;
   o->height = 768;
   o->frames = 1;
   o->ambient = 0.1f;
   o->output = "shadows.png";
   struct light_given given = {0};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (!strcmp(a, "--validate") || !strcmp(a, "--benchmark")) {
         *(a[2] == 'v' ? &o->validate : &o->benchmark) = true;
         continue;
      }
      if (i + 1 >= argc || !parse_one(a, argv[i + 1], o, &given)) {
         if (i + 1 < argc)
            fprintf(stderr, "%s: bad option or value: %s %s\n", TAG, a, argv[i + 1]);
         usage(argv[0]);
         return 2;
      }
      i++;
   }
   int status = scene_choice_finish(&o->choice, TAG, RQ_DEFAULT_SCENES_DIR);
   if (status == 0)
      light_defaults(o, &given);
   return status;
}

void shadow_options_frame_path(const struct shadow_options *o, const char *path, uint32_t frame,
                               char *out, size_t size)
{
   if (o->frames <= 1) {
      snprintf(out, size, "%s", path);
      return;
   }
   const char *dot = strrchr(path, '.');
   const char *slash = strrchr(path, '/');
   if (!dot || (slash && dot < slash))
      dot = path + strlen(path);
   snprintf(out, size, "%.*s_%04u%s", (int)(dot - path), path, frame, dot);
}

void shadow_light_position(const struct shadow_options *o, const struct obj_mesh *mesh,
                           uint32_t frame, float light[3])
{
   const float *lo = mesh->bounds_min, *hi = mesh->bounds_max;
   double half = 0.5 * fmin(hi[0] - lo[0], hi[2] - lo[2]);
   double angle =
       2.0 * M_PI * (double)(frame % SHADOW_LIGHT_PERIOD_FRAMES) / SHADOW_LIGHT_PERIOD_FRAMES;
   light[0] = (float)(0.5 * (lo[0] + hi[0]) + o->light_radius * half * cos(angle));
   light[1] = (float)(lo[1] + o->light_height * (hi[1] - lo[1]));
   light[2] = (float)(0.5 * (lo[2] + hi[2]) + o->light_radius * half * sin(angle));
}
