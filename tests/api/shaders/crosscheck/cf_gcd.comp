// tolerance: exact
// Euclid gcd with modulo in a loop.
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
   uint x = a | 1u, y = b | 2u;
   while (y != 0u) {
      uint t = x % y;
      x = y;
      y = t;
   }
   out_data[o + 0u] = x;
   out_data[o + 1u] = (a | 1u) / x;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
