// tolerance: exact
// Branches on the push constant (workgroup-uniform) around divergent ones.
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
   uint r = 0u;
   if ((seed & 1u) != 0u) {
      if ((a & 1u) != 0u)
         r = b;
      else
         r = c;
   } else {
      for (uint k = 0u; k < (seed & 15u); k++)
         r += a ^ k;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = seed & 15u;
   out_data[o + 2u] = r ^ d;
   out_data[o + 3u] = 0u;
}
