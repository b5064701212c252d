/* The CPU reference of shaders/mandelbrot.comp: the same fixed-point
 * arithmetic, so the two must agree on every pixel. */
#ifndef MANDELBROT_REFERENCE_H
#define MANDELBROT_REFERENCE_H

#include <stdint.h>

/* Mirrors the shader's push-constant block (std430 layout, 24 bytes). */
struct mandelbrot_params {
   int32_t x0, y0, step; /* Q.12 */
   uint32_t width, height, max_iterations;
};

#define MANDELBROT_FRAC_BITS 12

/* Fills counts[width * height] with escape counts. */
void mandelbrot_reference(const struct mandelbrot_params *p, uint32_t *counts);

/* Parameters that frame the whole set in a width x height image. */
struct mandelbrot_params mandelbrot_default_view(uint32_t width, uint32_t height,
                                                 uint32_t max_iterations);

#endif
