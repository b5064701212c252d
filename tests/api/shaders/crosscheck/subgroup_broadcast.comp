// tolerance: exact
// subgroupBroadcastFirst/Broadcast of uniform values, and of lane 0.
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
   uint u = wg * 7u + seed;
   uint first = subgroupBroadcastFirst(a);
   uint lane0 = subgroupBroadcast(a, 0u);
   out_data[o] = subgroupBroadcastFirst(u);
   out_data[o + 1u] = subgroupBroadcast(u ^ 5u, 0u);
   out_data[o + 2u] = uint(first == lane0);
}
