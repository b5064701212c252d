// tolerance: exact
// subgroupMin/Max (uint and int), combined per workgroup by atomics.
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
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint wg = gl_WorkGroupID.x;
   uint mn = subgroupMin(a), mx = subgroupMax(b);
   int smn = subgroupMin(int(c)), smx = subgroupMax(int(d));
   if (subgroupElect()) {
      atomicMax(out_data[wg * 4u + 3u], ~mn);
      atomicMax(out_data[(16u + wg) * 4u + 3u], mx);
      atomicMax(out_data[(32u + wg) * 4u + 3u], ~(uint(smn) ^ 0x80000000u));
      atomicMax(out_data[(48u + wg) * 4u + 3u], uint(smx) ^ 0x80000000u);
   }
   out_data[o] = uint(mn <= a) + uint(mx >= b) * 2u + uint(smn <= int(c)) * 4u + uint(smx >= int(d)) * 8u;
}
