#version 450
// shaderFloat64: double arithmetic whose results are exactly representable
// (inputs below 2^20), so the check can be bit-exact on any device.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In {
   uvec2 v[];
} src;
layout(set = 0, binding = 1) buffer Out {
   double v[];
} dst;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   double a = double(src.v[i].x & 0xFFFFFu);
   double b = double(src.v[i].y & 0xFFFFFu);
   double big = a * 1048576.0 + b;
   dst.v[4 * i + 0] = big * 0.5 - 3.25;
   dst.v[4 * i + 1] = (a - b) / 4.0;
   dst.v[4 * i + 2] = floor(b / 8.0) + double(uint(a + b) & 0xFFFu);
   dst.v[4 * i + 3] = max(a, b) - min(a, b) * 2.0;
}
