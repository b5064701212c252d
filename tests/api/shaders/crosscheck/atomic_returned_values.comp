// tolerance: exact
// Sum of values returned by atomicAdd(counter, 1): 0 + ... + n-1 whatever the order.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint counter;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   if (l == 0u)
      counter = 0u;
   barrier();
   uint ticket = atomicAdd(counter, 1u);
   atomicAdd(out_data[gl_WorkGroupID.x * 4u + 3u], ticket);
   atomicMax(out_data[(16u + gl_WorkGroupID.x) * 4u + 3u], ticket);
   uint g = atomicAdd(out_data[4095], 1u);
   atomicAdd(out_data[4091], g);
   out_data[o] = uint(ticket < 64u);
}
