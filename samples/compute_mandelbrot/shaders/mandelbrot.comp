#version 450
// Mandelbrot escape counts in Q19.12 fixed point. Integer arithmetic makes
// the result bit-exact on every driver, so the sample can compare it with
// its CPU reference (mandelbrot_reference.c) word for word.
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform Params {
   int x0;       // real part of pixel (0, 0), Q.12
   int y0;       // imaginary part of pixel (0, 0), Q.12
   int step;     // per pixel, Q.12
   uint width;
   uint height;
   uint max_iterations;
} p;
layout(set = 0, binding = 0) writeonly buffer Counts {
   uint count[];
} counts;

const int FRAC = 12;
const int ESCAPE = 4 << FRAC; // |z|^2 > 4

void main()
{
   uvec2 px = gl_GlobalInvocationID.xy;
   if (px.x >= p.width || px.y >= p.height)
      return;
   int cx = p.x0 + int(px.x) * p.step;
   int cy = p.y0 + int(px.y) * p.step;
   int x = 0, y = 0;
   uint n = 0;
   while (n < p.max_iterations) {
      int x2 = (x * x) >> FRAC;
      int y2 = (y * y) >> FRAC;
      if (x2 + y2 > ESCAPE)
         break;
      int xy = (x * y) >> (FRAC - 1);
      x = x2 - y2 + cx;
      y = xy + cy;
      n++;
   }
   counts.count[px.y * p.width + px.x] = n;
}
