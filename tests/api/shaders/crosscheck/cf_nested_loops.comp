// tolerance: exact
// Nested loops with bounds from data.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint n = (a & 7u) + 1u, m = (b & 7u), s = 0u;
   for (uint x = 0u; x < n; x++) {
      for (uint y = 0u; y <= m; y++)
         s = s * 31u + x * 7u + y + c;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = n * m;
   out_data[o + 2u] = s >> 16;
   out_data[o + 3u] = s & 0xffu;
}
