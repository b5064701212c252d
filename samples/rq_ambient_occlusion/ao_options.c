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
   scene_choice_print_names(stderr);
   fprintf(stderr, "\n(with --scene, --eye, --look-at, --fov and --ao-radius override the "
                   "scene's camera)\n");
}

static bool parse_one(const char *a, const char *v, struct ao_options *o, bool *radius_given)
{
   enum scene_choice_arg taken = scene_choice_arg(&o->choice, a, v);
   if (taken != SCENE_CHOICE_NOT_MINE)
      return taken == SCENE_CHOICE_TAKEN;
   if (!strcmp(a, "--ao-radius"))
      return *radius_given = vk_sample_parse_float(v, 1e-30, 1e30, &o->ao_radius);
   else if (!strcmp(a, "--ao-fraction"))
      return *radius_given = vk_sample_parse_float(v, 1e-6, 1.0, &o->ao_fraction);
   else if (!strcmp(a, "--width"))
      return vk_sample_parse_u32(v, 1, 16384, &o->width);
   else if (!strcmp(a, "--height"))
      return vk_sample_parse_u32(v, 1, 16384, &o->height);
   else if (!strcmp(a, "--spp"))
      return vk_sample_parse_u32(v, 1, 4096, &o->spp);
   else if (!strcmp(a, "--output"))
      o->output = v;
   else if (!strcmp(a, "--expect-mean-ao"))
      return vk_sample_parse_double(v, 0, 1, &o->expect_mean_ao);
   else if (!strcmp(a, "--expect-hit-fraction"))
      return vk_sample_parse_double(v, 0, 1, &o->expect_hit_fraction);
   else if (!strcmp(a, "--tolerance"))
      return vk_sample_parse_double(v, 0, 1, &o->tolerance);
   else
      return false;
   return true;
}

int ao_options_parse(int argc, char **argv, struct ao_options *o)
{
   memset(o, 0, sizeof(*o));
   o->width = o->height = 1024; /* the paper's and the README's resolution */
   o->spp = 4;                  /* the paper's AO rays per pixel */
   o->output = "ao.png";
   o->expect_mean_ao = o->expect_hit_fraction = NAN;
   o->tolerance = 0.02;
   bool radius_given = false;
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
      if (i + 1 >= argc || !parse_one(a, argv[i + 1], o, &radius_given)) {
         if (i + 1 < argc)
            fprintf(stderr, "%s: bad option or value: %s %s\n", RQ_TAG, a, argv[i + 1]);
         usage(argv[0]);
         return 2;
      }
      i++;
   }
   int status = scene_choice_finish(&o->choice, RQ_TAG, RQ_DEFAULT_SCENES_DIR);
   if (status)
      return status;
   if (!o->choice.scene && !radius_given) {
      fprintf(stderr, "%s: --obj needs --ao-radius (or --ao-fraction)\n", RQ_TAG);
      return 2;
   }
   if (!radius_given)
      o->ao_radius = o->choice.scene->ao_radius;
   return 0;
}
