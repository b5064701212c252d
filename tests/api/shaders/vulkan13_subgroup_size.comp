#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Created with a required subgroup size and REQUIRE_FULL_SUBGROUPS: each
// invocation writes the size, the subgroup count, how many lanes its
// subgroup has (all of them: full) and its subgroup's index.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer IO { uvec4 w[]; } io;
void main()
{
   uint lanes = subgroupBallotBitCount(subgroupBallot(true));
   io.w[gl_LocalInvocationIndex] = uvec4(gl_SubgroupSize, gl_NumSubgroups, lanes, gl_SubgroupID);
}
