#version 460
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
// Subgroup built-ins, votes and ballots.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; } b;
void main() {
   uint v = b.data[gl_GlobalInvocationID.x];
   bool all_big = subgroupAll(v > 10u);
   uvec4 ballot = subgroupBallot(v == 0u);
   uint first = subgroupBroadcastFirst(v);
   if (subgroupElect())
      b.data[gl_SubgroupID] = subgroupBallotBitCount(ballot) + gl_SubgroupSize + first;
   b.data[gl_GlobalInvocationID.x] = all_big ? gl_SubgroupInvocationID : 0u;
}
