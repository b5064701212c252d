// tolerance: exact
// subgroupBallot, bit count and bit extract; counts per workgroup.
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
   bool p = (a & 3u) == 0u;
   uvec4 bal = subgroupBallot(p);
   uint n = subgroupBallotBitCount(bal);
   if (subgroupElect())
      atomicAdd(out_data[wg * 4u + 3u], n);
   out_data[o] = uint(subgroupBallotBitExtract(bal, gl_SubgroupInvocationID) == p);
   out_data[o + 1u] = uint(n == subgroupAdd(uint(p)));
   out_data[o + 2u] = uint(subgroupBallotBitCount(subgroupBallot(true)) == gl_SubgroupSize);
}
