// tolerance: exact
// Collatz steps, bounded: long divergent loops.
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
   uint x = (a & 0xffffu) + 1u, steps = 0u, peak = x;
   while (x != 1u && steps < 500u) {
      x = (x & 1u) != 0u ? x * 3u + 1u : x >> 1;
      peak = max(peak, x);
      steps++;
   }
   out_data[o + 0u] = steps;
   out_data[o + 1u] = peak;
   out_data[o + 2u] = x;
   out_data[o + 3u] = 0u;
}
