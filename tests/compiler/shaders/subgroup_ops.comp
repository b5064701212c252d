#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Subgroup operations over full warps and a divergent half.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x, l = gl_SubgroupInvocationID;
   uint b = i * 12u;
   o[b + 0u] = subgroupAdd(i);
   o[b + 1u] = subgroupInclusiveAdd(i);
   o[b + 2u] = subgroupExclusiveAdd(1u);
   o[b + 3u] = subgroupMax(i * 7u % 13u);
   o[b + 4u] = subgroupBallot((i & 1u) == 1u).x;
   o[b + 5u] = uint(subgroupAll(i < 1000u)) + 2u * uint(subgroupAny(i == 3u)) +
               4u * uint(subgroupElect()) + 8u * uint(subgroupAllEqual(i / 32u));
   o[b + 6u] = subgroupShuffle(i, 31u - l);
   o[b + 7u] = subgroupShuffleXor(i, 1u);
   o[b + 8u] = subgroupBroadcast(i, 5u);
   o[b + 9u] = gl_SubgroupSize * 100u + gl_SubgroupID;
   if ((l & 1u) == 0u)
      o[b + 10u] = subgroupAdd(1u) + 100u * subgroupBroadcastFirst(l);
   o[b + 11u] = subgroupBallotExclusiveBitCount(subgroupBallot(true));
}
