// tolerance: exact
// subgroupAnd/Or/Xor, combined per workgroup by atomics.
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
   uint x = subgroupAnd(a | b), y = subgroupOr(c & d), z = subgroupXor(a);
   if (subgroupElect()) {
      atomicOr(out_data[wg * 4u + 3u], ~x);
      atomicOr(out_data[(16u + wg) * 4u + 3u], y);
      atomicXor(out_data[(32u + wg) * 4u + 3u], z);
   }
   out_data[o] = uint((x & ~(a | b)) == 0u) + uint((y & (c & d)) == (c & d)) * 2u;
}
