/* Command line of the sample; the scene and camera options are
 * samples/common's scene_choice. */
#ifndef AO_OPTIONS_H
#define AO_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "scene_choice.h"

struct ao_options {
   struct scene_choice choice;
   float ao_radius;
   float ao_fraction; /* > 0: AO radius = this x the scene's bounding-box diagonal */
   uint32_t width, height, spp;
   const char *output;
   bool validate, benchmark, host_build, compact;
   /* Checks; NaN where not asked for. */
   double expect_mean_ao, expect_hit_fraction, tolerance;
};

/* Fills *o from argv. Returns 0, or the exit status after printing the
 * usage or what is wrong: 2, or 77 (skip) as scene_choice_finish. */
int ao_options_parse(int argc, char **argv, struct ao_options *o);

#endif
