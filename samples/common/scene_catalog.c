/* See scene_catalog.h. */
#include "scene_catalog.h"

#include <math.h>
#include <string.h>

/* Copied from ../shared/scenes/README.md; up is +Y in every scene. */
static const struct scene_camera scenes[] = {
    {"cornell_tiny", "cornell_tiny.obj", {0, 5, 16}, {0, 5, 0}, 40, 3, 1.000f, 0.737f},
    {"teapot", "teapot.obj", {0, 110, 230}, {5, 35, 0}, 40, 20, 0.238f, 0.967f},
    {"dabrovic_sponza",
     "dabrovic_sponza.obj",
     {-13, 2.5f, 0},
     {15, 4.5f, 0},
     60,
     2,
     0.981f,
     0.880f},
    {"bunny", "bunny.obj", {-0.017f, 0.13f, 0.3f}, {-0.017f, 0.11f, 0}, 40, 0.02f, 0.354f, 0.937f},
    {"sibenik", "sibenik.obj", {-18, -10, 0}, {20, -8, 0}, 60, 2, 1.000f, 0.869f},
    {"lost_empire", "lost_empire.obj", {-30, 40, 75}, {5, 5, -10}, 60, 5, 0.782f, 0.662f},
    {"conference", "conference.obj", {1550, 350, -150}, {-900, 150, -150}, 60, 100, 1.000f, 0.912f},
    {"dragon",
     "dragon.obj.gz",
     {-0.006f, 0.15f, 0.32f},
     {-0.006f, 0.125f, 0},
     40,
     0.02f,
     0.325f,
     0.887f},
    {"kitchen",
     "kitchen.obj.gz",
     {1.211f, 1.805f, 3.852f},
     {-0.103f, 1.680f, 1.159f},
     50,
     0.5f,
     0.952f,
     0.833f},
    /* Built in code (samples/common/procedural_scene.c), for clones without
     * ../shared: the cornell_tiny camera looks into the same room frame. */
    {"procedural", NULL, {0, 5, 16}, {0, 5, 0}, 40, 3, NAN, NAN},
};

const struct scene_camera *scene_catalog_find(const char *name)
{
   for (size_t i = 0; i < scene_catalog_count(); i++) {
      if (!strcmp(scenes[i].name, name))
         return &scenes[i];
   }
   return NULL;
}

size_t scene_catalog_count(void)
{
   return sizeof(scenes) / sizeof(scenes[0]);
}

const struct scene_camera *scene_catalog_at(size_t index)
{
   return index < scene_catalog_count() ? &scenes[index] : NULL;
}
