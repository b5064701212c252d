/* Command line of rq_shadows; the scene and camera options are
 * samples/common's scene_choice, as in rq_ambient_occlusion. */
#ifndef SHADOW_OPTIONS_H
#define SHADOW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene_choice.h"

/* The light goes once round its circle in this many frames. */
#define SHADOW_LIGHT_PERIOD_FRAMES 48u

struct shadow_options {
   struct scene_choice choice;
   /* The light's circle: its height as a fraction of the bounding box's
    * (from its bottom), its radius as a fraction of the box's smaller
    * horizontal half-extent, around the box's vertical axis. Defaults
    * per scene in shadow_options.c. */
   float light_height, light_radius;
   float ambient;
   uint32_t width, height, frame, frames;
   const char *output;    /* PNG; numbered when frames > 1 */
   const char *dump_hits; /* NULL: none; numbered when frames > 1 */
   bool validate, benchmark;
};

/* Fills *o from argv. Returns 0, or the exit status after printing the
 * usage or what is wrong: 2, or 77 (skip) as scene_choice_finish. */
int shadow_options_parse(int argc, char **argv, struct shadow_options *o);

/* path with frame's number before its extension when there are several
 * frames ("a.png" -> "a_0003.png"), else path as it is. */
void shadow_options_frame_path(const struct shadow_options *o, const char *path, uint32_t frame,
                               char *out, size_t size);

/* The light's position in frame `frame`: on a horizontal circle around the
 * bounding box's vertical axis (light_height, light_radius above). */
void shadow_light_position(const struct shadow_options *o, const struct obj_mesh *mesh,
                           uint32_t frame, float light[3]);

#endif
