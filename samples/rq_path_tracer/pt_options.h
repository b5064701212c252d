/* Command line of rq_path_tracer; the scene and camera options are
 * samples/common's scene_choice, as in the other ray-query samples. */
#ifndef PT_OPTIONS_H
#define PT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "scene_choice.h"

struct pt_options {
   struct scene_choice choice;
   uint32_t width, height, spp, bounces;
   float albedo;
   float emission;     /* radiance of the scene's top triangles; 0: sky only */
   const char *output; /* RGB PNG */
   bool validate, benchmark;
   /* --expect-mean: the image's mean radiance must be within tolerance. */
   bool expect_mean_given;
   double expect_mean, tolerance;
};

/* Fills *o from argv. Returns 0, or the exit status after printing the
 * usage or what is wrong: 2, or 77 (skip) as scene_choice_finish. */
int pt_options_parse(int argc, char **argv, struct pt_options *o);

#endif
