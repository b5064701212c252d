#include "mandelbrot_reference.h"

/* Arithmetic right shift of a signed value, spelled out: in C the result of
 * >> on a negative int is implementation-defined, in GLSL it is arithmetic. */
static int32_t asr(int32_t v, int bits)
{
   return v >= 0 ? v >> bits : -(int32_t)((-(int64_t)v + ((1 << bits) - 1)) >> bits);
}

/* Two's-complement wrap-around multiply, as GLSL int multiplication is
 * (signed overflow is undefined in C, so it is done in uint32_t). */
static int32_t mul_wrap(int32_t a, int32_t b)
{
   return (int32_t)((uint32_t)a * (uint32_t)b);
}

void mandelbrot_reference(const struct mandelbrot_params *p, uint32_t *counts)
{
   const int32_t escape = 4 << MANDELBROT_FRAC_BITS;
   for (uint32_t py = 0; py < p->height; py++) {
      for (uint32_t px = 0; px < p->width; px++) {
         int32_t cx = p->x0 + (int32_t)px * p->step;
         int32_t cy = p->y0 + (int32_t)py * p->step;
         int32_t x = 0, y = 0;
         uint32_t n = 0;
         while (n < p->max_iterations) {
            int32_t x2 = asr(mul_wrap(x, x), MANDELBROT_FRAC_BITS);
            int32_t y2 = asr(mul_wrap(y, y), MANDELBROT_FRAC_BITS);
            if (x2 + y2 > escape)
               break;
            int32_t xy = asr(mul_wrap(x, y), MANDELBROT_FRAC_BITS - 1);
            x = x2 - y2 + cx;
            y = xy + cy;
            n++;
         }
         counts[py * p->width + px] = n;
      }
   }
}

struct mandelbrot_params mandelbrot_default_view(uint32_t width, uint32_t height,
                                                 uint32_t max_iterations)
{
   /* Real part -2.25 .. 0.75 across the width, centred vertically. */
   const int32_t one = 1 << MANDELBROT_FRAC_BITS;
   int32_t step = (3 * one) / (int32_t)(width ? width : 1);
   if (step < 1)
      step = 1;
   struct mandelbrot_params p = {
       .x0 = -(9 * one) / 4,
       .y0 = -(step * (int32_t)height) / 2,
       .step = step,
       .width = width,
       .height = height,
       .max_iterations = max_iterations,
   };
   return p;
}
