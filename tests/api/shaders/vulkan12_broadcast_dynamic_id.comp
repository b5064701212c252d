#version 450
// SPIR-V 1.5 lets OpGroupNonUniformBroadcast take a lane that is not a
// constant, only dynamically uniform (subgroupBroadcastDynamicId): here a
// push constant picks the lane.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(push_constant) uniform Pc { uint lane; } pc;
layout(set = 0, binding = 0) buffer Io { uint o[64]; } io;
void main()
{
   uint i = gl_LocalInvocationIndex;
   io.o[i] = subgroupBroadcast(i * 5u + 3u, pc.lane);
}
