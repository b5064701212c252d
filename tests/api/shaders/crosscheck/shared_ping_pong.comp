// tolerance: exact
// Barriers inside a loop with a workgroup-uniform trip count from the push constant.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint ping[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   ping[l] = a;
   barrier();
   uint rounds = (seed & 7u) + 3u;
   for (uint r = 0u; r < rounds; r++) {
      uint v = ping[(l + r + 1u) & 63u] ^ ping[l];
      barrier();
      ping[l] = v * 3u + r;
      memoryBarrierShared();
      barrier();
   }
   out_data[o + 0u] = ping[l];
   out_data[o + 1u] = ping[63u - l];
   out_data[o + 2u] = rounds;
   out_data[o + 3u] = 0u;
}
