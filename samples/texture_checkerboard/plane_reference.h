/* The CPU reference of shaders/plane.comp: the same rays and footprints in
 * the same float arithmetic, and texture filtering written from the Vulkan
 * specification ("Texel Filtering", "Level-of-Detail Operation": isotropic
 * rho = max of the two gradient lengths, linear filtering between the two
 * nearest levels, REPEAT addressing). */
#ifndef PLANE_REFERENCE_H
#define PLANE_REFERENCE_H

#include "checker_texture.h"
#include "plane_params.h"

/* RGBA8 pixels, rows top to bottom, rounded as an rgba8 imageStore does. */
void plane_reference_render(const struct plane_params *p, const struct checker_levels *levels,
                            bool trilinear, uint8_t *rgba);

#endif
