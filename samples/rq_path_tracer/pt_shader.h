/* What the host shares with shaders/path_tracer.comp: its push constants and
 * its per-pixel result record, member for member (std430). */
#ifndef PT_SHADER_H
#define PT_SHADER_H

#include <stdint.h>

struct pt_push_constants {
   float eye[3], origin_offset;     /* offset: bounce origin off the surface */
   float right[3], albedo;          /* right: unit right * tan(fov / 2) */
   float up[3], emission;           /* up: unit true up * tan(fov / 2); emitters' radiance */
   float forward[3], emitter_min_y; /* triangles with every corner at y >= this emit */
   uint32_t width, height, spp, bounces;
};

struct pt_pixel {
   float radiance[3]; /* linear RGB, mean over the pixel's samples */
   uint32_t rays;     /* ray queries traced for this pixel (--benchmark) */
};

#endif
