// tolerance: exact
// Nested ifs three deep, divergent.
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
   if (a > b) {
      r += 1u;
      if (c > d) {
         r += 10u;
         if ((a ^ c) > 0x80000000u)
            r += 100u;
         else
            r -= 7u;
      } else {
         r *= 5u;
      }
   } else if ((d & 3u) == 0u) {
      r = 42u;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = r * a;
   out_data[o + 2u] = uint(r > 50u);
   out_data[o + 3u] = d;
}
