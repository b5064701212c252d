/* Command line of the sample; the scenes and cameras are samples/common's
 * scene catalog. */
#ifndef AO_OPTIONS_H
#define AO_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "scene_catalog.h"

struct ao_options {
   const struct scene_camera *scene; /* NULL with --obj */
   bool scene_defaulted;             /* no --scene and no --obj: cornell_tiny */
   const char *scenes_dir;
   char mesh_path[4096];
   float eye[3], look_at[3], fov_degrees, ao_radius;
   float ao_fraction; /* > 0: AO radius = this x the scene's bounding-box diagonal */
   uint32_t width, height, spp;
   const char *output;
   bool validate, benchmark, host_build, compact;
   /* Checks; NaN where not asked for. */
   double expect_mean_ao, expect_hit_fraction, tolerance;
};

/* Fills *o from argv. Returns 0, or the exit status (2) after printing the
 * usage or what is wrong. */
int ao_options_parse(int argc, char **argv, struct ao_options *o);

/* Switches to the table's scene `name` with its camera; false if there is
 * no such scene. */
bool ao_options_use_scene(struct ao_options *o, const char *name);
/* mesh_path from the scene and the scenes folder. */
void ao_options_set_mesh_path(struct ao_options *o);

#endif
