// tolerance: exact
// return from inside a loop, divergent.
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
   uint s = 0u;
   for (uint k = 0u; k < 32u; k++) {
      s += (a >> k) & 1u;
      if (s == 5u) {
         out_data[o] = k;
         out_data[o + 1u] = 1u;
         return;
      }
   }
   out_data[o] = s;
   out_data[o + 2u] = 2u;
}
