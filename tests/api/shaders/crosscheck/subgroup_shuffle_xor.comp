// tolerance: exact
// subgroupShuffleXor and subgroupShuffle with lane masks below 4.
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
   uint l = gl_LocalInvocationIndex;
   out_data[o] = subgroupShuffleXor(a, 1u);
   out_data[o + 1u] = subgroupShuffleXor(b, 2u);
   out_data[o + 2u] = subgroupShuffle(c, gl_SubgroupInvocationID ^ 3u);
   out_data[o + 3u] = subgroupShuffleXor(l, 1u) ^ l;
}
