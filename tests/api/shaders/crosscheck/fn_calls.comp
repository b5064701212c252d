// tolerance: exact
// Functions with in, out and inout parameters.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint mixu(uint x, uint y) { return (x ^ (y << 3)) + (y >> 5); }
void twice(inout uint x, out uint y)
{
   y = x * 2u;
   x = x + 1u;
}
void accumulate(inout uint acc, uint v)
{
   for (uint k = 0u; k < 4u; k++)
      acc = mixu(acc, v + k);
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint x = a, y;
   twice(x, y);
   accumulate(x, b);
   accumulate(y, c);
   out_data[o + 0u] = x;
   out_data[o + 1u] = y;
   out_data[o + 2u] = mixu(x, y);
   out_data[o + 3u] = mixu(d, seed);
}
