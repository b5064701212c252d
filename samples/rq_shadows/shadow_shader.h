/* What the host shares with shaders/shadows.comp: its push constants and its
 * per-pixel result record, member for member (std430). The golden test in
 * tests/raytrace reads the same record from --dump-hits files. */
#ifndef SHADOW_SHADER_H
#define SHADOW_SHADER_H

#include <stdint.h>

#define SHADOW_MISSED 0xffffffffu /* primitive of a pixel whose primary ray hit nothing */

enum shadow_state {
   SHADOW_STATE_MISS = 0,        /* the primary ray hit nothing */
   SHADOW_STATE_LIT = 1,         /* the shadow ray reached the light */
   SHADOW_STATE_SHADOWED = 2,    /* the shadow ray hit something */
   SHADOW_STATE_FACING_AWAY = 3, /* the light is behind the surface: no shadow ray */
};

struct shadow_push_constants {
   float eye[3], origin_offset; /* offset: shadow-ray origin off the surface */
   float right[3], unused0;     /* unit right * tan(fov / 2) */
   float up[3], unused1;        /* unit true up * tan(fov / 2) */
   float forward[3], unused2;   /* unit view direction */
   float light[3], ambient;     /* point light position; ambient term */
   uint32_t width, height, unused3, unused4;
};

struct shadow_pixel {
   uint32_t primitive; /* hit triangle, or SHADOW_MISSED */
   float t;            /* primary hit distance along the unit direction */
   uint32_t state;     /* enum shadow_state */
   float radiance;     /* ambient + (1 - ambient) * cos * visible; 0 on a miss */
   /* Where the shadow ray starts; it goes along light - origin with t in
    * [0, 1]. */
   float shadow_origin[3], unused;
};

/* --dump-hits files: this header, then width x height struct shadow_pixel
 * (rows top to bottom), all little-endian as the host writes them. */
#define SHADOW_DUMP_MAGIC "RQSHDUMP"
#define SHADOW_DUMP_VERSION 1u

struct shadow_dump_header {
   char magic[8];    /* SHADOW_DUMP_MAGIC, no terminator */
   uint32_t version; /* SHADOW_DUMP_VERSION */
   uint32_t frame;
   struct shadow_push_constants params; /* the camera and light exactly as pushed */
};

#endif
