// tolerance: exact
// Inclusive/exclusive subgroup scans made into workgroup scans with shared memory.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint totals[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint v = a & 0xffffu;
   uint inc = subgroupInclusiveAdd(v), exc = subgroupExclusiveAdd(v);
   if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u || gl_LocalInvocationIndex == 63u)
      totals[gl_SubgroupID] = inc;
   barrier();
   uint prefix = 0u;
   for (uint s = 0u; s < gl_SubgroupID; s++)
      prefix += totals[s];
   uint m = subgroupInclusiveMax(b >> 4);
   out_data[o] = inc + prefix;
   out_data[o + 1u] = exc + prefix;
   out_data[o + 2u] = uint(inc - exc == v) + uint(m >= (b >> 4)) * 2u;
}
