// tolerance: exact
// while (true) left only by return, divergent trip counts.
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
   uint x = a;
   uint n = 0u;
   while (true) {
      n++;
      x = x * 1103515245u + 12345u;
      if ((x >> 28) == (b >> 28) || n == 64u) {
         out_data[o] = n;
         out_data[o + 1u] = x;
         return;
      }
   }
}
