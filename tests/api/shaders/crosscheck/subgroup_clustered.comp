// tolerance: exact
// subgroupClustered* (clusters of 1, 2 and 4) in divergent code, 36 lanes a workgroup.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
// 36 invocations: the last subgroup is partial whatever the subgroup size
// (4 to 32); clusters of at most 4 lie within one subgroup.
layout(local_size_x = 36) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   if ((d & 3u) == 0u)
      return; // a quarter of the lanes do not take part
   // Exact floats: quarters below 64 add exactly, powers of two multiply so.
   float f = float(a & 255u) * 0.25, fm = (b & 1u) != 0u ? 2.0 : -0.5;
   bool p = (c & 1u) != 0u;
   out_data[o] = subgroupClusteredAdd(a, 4u) ^ subgroupClusteredMul(b, 2u) * 3u;
   out_data[o + 1u] = subgroupClusteredMin(b, 4u) + subgroupClusteredMax(c, 2u) +
                      uint(subgroupClusteredMin(int(a), 2u)) ^ uint(subgroupClusteredMax(int(d), 4u));
   out_data[o + 2u] = floatBitsToUint(subgroupClusteredAdd(f, 4u) + subgroupClusteredMul(fm, 4u) +
                                      subgroupClusteredMin(f, 2u) * subgroupClusteredMax(f, 1u));
   out_data[o + 3u] = subgroupClusteredAnd(a | b, 4u) ^ subgroupClusteredOr(c & d, 2u) ^
                      subgroupClusteredXor(a, 4u) ^ uint(subgroupClusteredAnd(p, 4u)) << 1 ^
                      uint(subgroupClusteredOr(p, 2u)) << 2 ^ uint(subgroupClusteredXor(p, 4u)) << 3;
}
