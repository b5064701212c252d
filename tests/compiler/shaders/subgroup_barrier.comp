#version 450
#extension GL_KHR_shader_subgroup_basic : require
// subgroupBarrier() where subgroups diverge: subgroup w runs 1 + 2w loop
// iterations with two subgroup barriers each, and only odd lanes run a
// third; then one barrier() hands each lane the value the other subgroup
// computed. Were a subgroup barrier a workgroup barrier, the warps'
// barriers would pair up wrongly and the last read would see stale data.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[64];
shared uint fin[64];
void main()
{
   uint lid = gl_LocalInvocationIndex, sg = gl_SubgroupID, l = gl_SubgroupInvocationID;
   uint acc = 0u;
   for (uint it = 0u; it < 1u + 2u * sg; it++) {
      s[lid] = lid * 16u + it;
      subgroupBarrier();
      acc += s[lid ^ 1u];
      subgroupBarrier();
   }
   if ((l & 1u) == 1u) {
      s[lid] = 1000u + lid;
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      acc += s[lid ^ 2u];
   }
   fin[lid] = acc;
   barrier();
   o[gl_GlobalInvocationID.x] = fin[(lid + 32u) % 64u];
}
