#include "pt_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vk_sample.h"

#define TAG "rq_path_tracer"

/* One valued option: its name, where its value goes and its range. Flags
 * (no value) are handled apart. */
enum value_kind { VALUE_U32, VALUE_FLOAT, VALUE_DOUBLE, VALUE_STRING };

struct value_option {
   const char *name;
   enum value_kind kind;
   size_t offset; /* in struct pt_options */
   double lo, hi;
};

static const struct value_option value_options[] = {
    {"--width", VALUE_U32, offsetof(struct pt_options, width), 1, 16384},
    {"--height", VALUE_U32, offsetof(struct pt_options, height), 1, 16384},
    {"--spp", VALUE_U32, offsetof(struct pt_options, spp), 1, 65536},
    {"--bounces", VALUE_U32, offsetof(struct pt_options, bounces), 0, 64},
    {"--albedo", VALUE_FLOAT, offsetof(struct pt_options, albedo), 0, 1},
    {"--emission", VALUE_FLOAT, offsetof(struct pt_options, emission), 0, 1000},
    {"--output", VALUE_STRING, offsetof(struct pt_options, output), 0, 0},
    {"--expect-mean", VALUE_DOUBLE, offsetof(struct pt_options, expect_mean), 0, 1000},
    {"--tolerance", VALUE_DOUBLE, offsetof(struct pt_options, tolerance), 0, 1000},
};

static void usage(const char *argv0)
{
   fprintf(stderr,
           "usage: %s [--scene NAME | --obj FILE --eye X,Y,Z --look-at X,Y,Z --fov DEG]\n"
           "          [--scenes-dir DIR] [--width N] [--height N] [--spp N] [--bounces N]\n"
           "          [--albedo A] [--emission E] [--output FILE.png] [--validate]\n"
           "          [--benchmark] [--expect-mean L --tolerance T]\n"
           "--eye, --look-at and --fov given with --scene replace its camera. NAME is one of",
           argv0);
   scene_choice_print_names(stderr);
   fputc('\n', stderr);
}

static bool take_value(const struct value_option *opt, const char *v, struct pt_options *o)
{
   void *field = (char *)o + opt->offset;
   switch (opt->kind) {
   case VALUE_U32:
      return vk_sample_parse_u32(v, (uint32_t)opt->lo, (uint32_t)opt->hi, field);
   case VALUE_FLOAT:
      return vk_sample_parse_float(v, opt->lo, opt->hi, field);
   case VALUE_DOUBLE:
      return vk_sample_parse_double(v, opt->lo, opt->hi, field);
   case VALUE_STRING:
      *(const char **)field = v;
      return true;
   }
   return false;
}

/* Option a with value v: true when it is known and v is in range. */
static bool parse_valued(const char *a, const char *v, struct pt_options *o)
{
   enum scene_choice_arg taken = scene_choice_arg(&o->choice, a, v);
   if (taken != SCENE_CHOICE_NOT_MINE)
      return taken == SCENE_CHOICE_TAKEN;
   for (size_t i = 0; i < sizeof(value_options) / sizeof(value_options[0]); i++) {
      if (strcmp(a, value_options[i].name))
         continue;
      if (!strcmp(a, "--expect-mean"))
         o->expect_mean_given = true;
      return take_value(&value_options[i], v, o);
   }
   return false;
}

int pt_options_parse(int argc, char **argv, struct pt_options *o)
{
   /* The defaults README.md lists. */
   *o = (struct pt_options){
       .width = 512,
       .height = 384,
       .spp = 16,
       .bounces = 3,
       .albedo = 0.7f,
       .emission = 1.0f,
       .tolerance = 0.01,
       .output = "path_tracer.png",
   };
   int i = 1;
   while (i < argc) {
      const char *a = argv[i];
      if (!strcmp(a, "--validate")) {
         o->validate = true;
         i++;
      } else if (!strcmp(a, "--benchmark")) {
         o->benchmark = true;
         i++;
      } else if (i + 1 < argc && parse_valued(a, argv[i + 1], o)) {
         i += 2;
      } else {
         fprintf(stderr, "%s: bad option or value: %s%s%s\n", TAG, a, i + 1 < argc ? " " : "",
                 i + 1 < argc ? argv[i + 1] : "");
         usage(argv[0]);
         return 2;
      }
   }
   return scene_choice_finish(&o->choice, TAG, RQ_DEFAULT_SCENES_DIR);
}
