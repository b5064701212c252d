// tolerance: exact
// subgroupQuadBroadcast and quad swaps of uint, float, bool and vectors; whole quads diverge.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
// 36 invocations: quads stay whole, the last subgroup is partial.
layout(local_size_x = 36) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   // Decided per quad, so every lane a quad operation reads is active.
   if ((in_data[(i & ~3u) * 4u + 3u] & 7u) == 0u)
      return;
   float f = float(b & 0xffffu) * 0.125;
   out_data[o] = subgroupQuadBroadcast(a, 0u) ^ subgroupQuadBroadcast(b, 3u) * 5u;
   out_data[o + 1u] = subgroupQuadSwapHorizontal(a) + subgroupQuadSwapVertical(b) * 3u +
                      subgroupQuadSwapDiagonal(c) * 7u;
   out_data[o + 2u] = floatBitsToUint(subgroupQuadSwapDiagonal(f) + subgroupQuadBroadcast(f, 2u) * 2.0);
   uvec3 v = subgroupQuadSwapVertical(uvec3(a, c, i));
   bvec2 p = subgroupQuadSwapHorizontal(bvec2((a & 1u) != 0u, (d & 2u) != 0u));
   out_data[o + 3u] = v.x ^ v.y * 9u ^ v.z << 20 ^ uint(p.x) << 30 ^ uint(p.y) << 31 ^
                      uint(subgroupQuadBroadcast((c & 4u) != 0u, 1u)) << 29;
}
