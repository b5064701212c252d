/* The shared scenes and their suggested views: one table for the samples,
 * the tests and the benchmarks, copied from ../shared/scenes/README.md
 * ("Suggested cameras"), plus the built-in procedural scene. */
#ifndef SCENE_CATALOG_H
#define SCENE_CATALOG_H

#include <stddef.h>

struct scene_camera {
   const char *name;
   const char *file; /* in the scenes folder; NULL: built in code (procedural_scene.h) */
   float eye[3], look_at[3];
   float fov_degrees; /* full vertical field of view; the image is square */
   float ao_radius;   /* suggested t_max of the AO rays, in scene units */
   /* The README's figures at 512x512, 16 AO rays per pixel; NaN where the
    * README has none (the procedural scene). */
   float reference_hit_fraction, reference_mean_ao;
};

/* NULL when there is no such scene. */
const struct scene_camera *scene_catalog_find(const char *name);
size_t scene_catalog_count(void);
const struct scene_camera *scene_catalog_at(size_t index);

#endif
