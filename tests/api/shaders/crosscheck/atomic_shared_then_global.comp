// tolerance: exact
// Shared atomics per workgroup, then one global atomic each.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint total;
shared uint hi;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   if (l == 0u) {
      total = 0u;
      hi = 0u;
   }
   barrier();
   atomicAdd(total, a >> 16);
   atomicMax(hi, b);
   barrier();
   if (l == 0u) {
      out_data[gl_WorkGroupID.x * 4u] = total;
      out_data[gl_WorkGroupID.x * 4u + 1u] = hi;
      atomicAdd(out_data[4095], total);
   }
}
