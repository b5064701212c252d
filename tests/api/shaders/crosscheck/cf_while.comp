// tolerance: exact
// while loop with a data-dependent condition.
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
   uint x = a | 1u, steps = 0u;
   while (x < 0x80000000u && steps < 40u) {
      x = x * 3u;
      steps++;
   }
   out_data[o + 0u] = x;
   out_data[o + 1u] = steps;
   out_data[o + 2u] = steps * 2u + (x & 1u);
   out_data[o + 3u] = 0u;
}
