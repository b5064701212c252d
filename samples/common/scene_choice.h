/* The scene a ray-tracing sample renders, chosen on its command line the
 * same way in every sample: --scene NAME (the catalog's scenes and camera,
 * including the built-in procedural one), or --obj FILE with --eye,
 * --look-at and --fov; --scenes-dir. Without either, cornell_tiny, or the
 * procedural scene where the scenes folder is missing. */
#ifndef SCENE_CHOICE_H
#define SCENE_CHOICE_H

#include <stdbool.h>
#include <stdio.h>

#include "obj_mesh.h"
#include "scene_catalog.h"

struct scene_choice {
   const struct scene_camera *scene; /* NULL with --obj */
   const char *scenes_dir;
   char mesh_path[4096];
   float eye[3], look_at[3], fov_degrees;
   /* What the command line said; the camera given wins over the scene's. */
   const char *scene_name, *obj;
   bool eye_given, look_at_given, fov_given;
};

enum scene_choice_arg {
   SCENE_CHOICE_NOT_MINE, /* not one of the options above */
   SCENE_CHOICE_TAKEN,
   SCENE_CHOICE_BAD_VALUE,
};

/* Takes option a with value v if it is one of the options above. */
enum scene_choice_arg scene_choice_arg(struct scene_choice *c, const char *a, const char *v);

/* After the command line: picks the scene and fills in the camera and the
 * mesh path. The scenes folder is --scenes-dir, else $VKPPU_SCENES_DIR,
 * else default_scenes_dir. Returns 0; 2 after saying what is wrong with
 * the command line; 77 (skip) after saying so when a scene named on it
 * needs a scenes folder that is missing. */
int scene_choice_finish(struct scene_choice *c, const char *tag, const char *default_scenes_dir);

/* Loads (or builds) the chosen mesh; false after printing why not. */
bool scene_choice_load(const struct scene_choice *c, const char *tag, struct obj_mesh *mesh);

/* The scenes' names, for a usage message. */
void scene_choice_print_names(FILE *f);

#endif
