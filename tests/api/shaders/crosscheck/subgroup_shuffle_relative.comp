// tolerance: exact
// subgroupShuffleUp/Down within aligned blocks of four lanes, and shuffles of vectors and bools.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_SubgroupInvocationID, q = l & 3u;
   // A source outside the lane's block of four would depend on the
   // subgroup size: those lanes write a constant instead.
   uint up1 = subgroupShuffleUp(a, 1u), up3 = subgroupShuffleUp(b, 3u);
   uint down2 = subgroupShuffleDown(c, 2u), down1 = subgroupShuffleDown(a ^ b, 1u);
   out_data[o] = q >= 1u ? up1 : 0x11111111u;
   out_data[o + 1u] = (q >= 3u ? up3 : 0x22222222u) ^ (q <= 1u ? down2 : 0x33333333u);
   out_data[o + 2u] = q <= 2u ? down1 : 0x44444444u;
   uvec2 v = subgroupShuffle(uvec2(a, d), l ^ 3u);
   bool p = subgroupShuffleXor((d & 1u) != 0u, 2u);
   vec2 f = subgroupShuffleXor(vec2(float(a >> 16), float(c >> 20) * 0.5), 1u);
   out_data[o + 3u] = v.x ^ v.y * 3u ^ uint(p) ^ floatBitsToUint(f.x + f.y);
}
