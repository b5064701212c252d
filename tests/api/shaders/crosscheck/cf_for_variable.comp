// tolerance: exact
// for loops with a data-dependent trip count 0..31.
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
   uint n = a & 31u, s = 0u, p = 1u;
   for (uint k = 0u; k < n; k++) {
      s += k * b;
      p *= 3u;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = p;
   out_data[o + 2u] = n;
   out_data[o + 3u] = s ^ p;
}
