/* What the sample pushes to shaders/plane.comp (its push-constant block,
 * std430 layout) and what the CPU reference renders from. */
#ifndef PLANE_PARAMS_H
#define PLANE_PARAMS_H

#include <stdint.h>

struct plane_params {
   float cam_pos[4];     /* xyz: the eye, above the plane y = 0 */
   float cam_right[4];   /* xyz: half the image width at distance 1 */
   float cam_up[4];      /* xyz: half the image height at distance 1 */
   float cam_forward[4]; /* xyz: view direction */
   float sky[4];         /* RGBA of rays that miss the plane */
   uint32_t width, height;
   uint32_t samples_side; /* samples_side^2 samples a pixel */
   float tile_scale;      /* texture repeats per world unit */
};
_Static_assert(sizeof(struct plane_params) == 96, "push-constant layout of plane.comp");

/* The sample's camera: low over the plane, looking towards the horizon so
 * that one image shows every mip level. */
struct plane_params plane_default_params(uint32_t width, uint32_t height, uint32_t samples_side);

#endif
