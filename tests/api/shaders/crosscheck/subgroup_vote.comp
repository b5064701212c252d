// tolerance: exact
// subgroupAll/Any/AllEqual of workgroup-uniform and lane-varying values.
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
   bool u = (seed & 1u) != 0u;
   uint r = uint(subgroupAll(u) == u) | uint(subgroupAny(u) == u) << 1 |
            uint(subgroupAllEqual(wg)) << 2 | uint(subgroupAll(a == a)) << 3 |
            uint(subgroupAny(i == gl_SubgroupInvocationID + gl_SubgroupID * gl_SubgroupSize + wg * 64u)) << 4;
   out_data[o] = r;
   out_data[o + 1u] = uint(subgroupAny(a == 0xffffffffu && false));
   out_data[o + 2u] = uint(subgroupAll((a & 1u) == 0u) == (subgroupAdd(a & 1u) == 0u));
}
