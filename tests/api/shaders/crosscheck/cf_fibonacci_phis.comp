// tolerance: exact
// Loop-carried values swapped each iteration (parallel phis).
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
   uint f0 = a, f1 = b, n = c & 63u;
   for (uint k = 0u; k < n; k++) {
      uint t = f0 + f1;
      f0 = f1;
      f1 = t;
   }
   uint x = 1u, y = 2u;
   for (uint k = 0u; k < (d & 7u); k++) {
      uint t = x;
      x = y;
      y = t;
   }
   out_data[o + 0u] = f0;
   out_data[o + 1u] = f1;
   out_data[o + 2u] = x;
   out_data[o + 3u] = y;
}
