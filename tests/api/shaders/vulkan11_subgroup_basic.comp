#version 450
// Compiled for Vulkan 1.1 (SPIR-V 1.3, buffers in the StorageBuffer storage
// class): the subgroup BASIC operations every 1.1 device supports in compute.
// Per invocation: the global index times 3 (the buffer works), the subgroup
// size, the invocation's index in its subgroup, the subgroup id and count;
// per workgroup: how many invocations subgroupElect chose (one per subgroup).
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out {
   uint elected[4];
   uvec4 v[];
} o;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   o.v[i] = uvec4(i * 3u, gl_SubgroupSize, gl_SubgroupInvocationID,
                  (gl_SubgroupID << 16) | gl_NumSubgroups);
   subgroupBarrier();
   if (subgroupElect())
      atomicAdd(o.elected[gl_WorkGroupID.x], 1u);
}
