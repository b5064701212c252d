/* A scene made in code, so the ray-tracing samples run in a clone without
 * ../shared/scenes: a room open at z = +5 (the cornell_tiny frame:
 * [-5,5] x [0,10] x [-5,5], +Y up) holding a subdivided icosphere and a box.
 * The sphere and the box are closed meshes with shared vertices, which also
 * makes the scene a watertightness target. */
#ifndef PROCEDURAL_SCENE_H
#define PROCEDURAL_SCENE_H

#include <stdbool.h>

#include "obj_mesh.h"

/* Fills *mesh (free it with obj_mesh_free). False only when out of memory. */
bool procedural_scene_build(struct obj_mesh *mesh);

#endif
