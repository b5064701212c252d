#version 450
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Votes, ballots, broadcasts, shuffles and quad operations on uint, float,
// double, bool and vectors, in lanes that sel[] leaves active; q[] is
// uniform in most subgroups. 48 invocations per workgroup: warps of 32 and
// 16 lanes (a partial last subgroup).
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer Sel { uint sel[]; };
layout(set = 0, binding = 1) readonly buffer Val { uint val[]; };
layout(set = 0, binding = 2) readonly buffer Q { uint q[]; };
layout(set = 0, binding = 3) buffer Out { uint o[]; };
layout(set = 0, binding = 4) buffer OutD { double od[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x, l = gl_SubgroupInvocationID;
   uint b = i * 40u, bd = i * 12u;
   uint u = val[i], qu = q[i];
   bool t = (u & 1u) != 0u;
   double dv = double(u) + double(qu) * 4294967296.0;
   // Equal as floats for q = 0 in every lane, not bit for bit.
   float fq = qu == 0u ? ((l & 1u) != 0u ? -0.0 : 0.0) : float(qu);
   uint idx = (u >> 5) & 31u;
   if (sel[i] == 0u)
      return;
   o[b + 0u] = uint(subgroupAll(t));
   o[b + 1u] = uint(subgroupAny(t));
   o[b + 2u] = uint(subgroupAllEqual(qu));
   o[b + 3u] = uint(subgroupAllEqual(double(qu) * 0.5));
   o[b + 4u] = uint(subgroupAllEqual(dvec2(double(qu), 1.0)));
   o[b + 5u] = uint(subgroupAllEqual(fq));
   o[b + 6u] = uint(subgroupAllEqual(qu != 7u));
   o[b + 7u] = uint(subgroupAllEqual(uvec3(1u, qu, 2u)));
   uvec4 bal = subgroupBallot(t);
   o[b + 8u] = bal.x;
   o[b + 9u] = bal.y | bal.z | bal.w;
   uint first = subgroupBroadcastFirst(u);
   o[b + 10u] = uint(subgroupInverseBallot(uvec4(first, 0u, 0u, 0u)));
   o[b + 11u] = uint(subgroupBallotBitExtract(uvec4(u, ~u, u ^ 0x5555u, 7u), (u >> 3) & 127u));
   o[b + 12u] = subgroupBallotBitCount(bal);
   o[b + 13u] = subgroupBallotInclusiveBitCount(bal);
   o[b + 14u] = subgroupBallotExclusiveBitCount(bal);
   o[b + 15u] = subgroupBallotFindLSB(bal);
   o[b + 16u] = subgroupBallotFindMSB(bal);
   o[b + 17u] = first;
   o[b + 18u] = subgroupBroadcast(u, 5u);
   o[b + 19u] = subgroupShuffle(u, idx);
   o[b + 20u] = subgroupShuffleXor(u, 5u);
   o[b + 21u] = subgroupShuffleUp(u, 3u);
   o[b + 22u] = subgroupShuffleDown(u, 2u);
   uvec3 v3 = subgroupShuffleXor(uvec3(u, u + 1u, l), 2u);
   o[b + 23u] = v3.x;
   o[b + 24u] = v3.y;
   o[b + 25u] = v3.z;
   o[b + 26u] = uint(subgroupShuffleXor(t, 1u));
   o[b + 27u] = subgroupQuadBroadcast(u, 2u);
   o[b + 28u] = subgroupQuadSwapHorizontal(u);
   o[b + 29u] = subgroupQuadSwapVertical(u);
   o[b + 30u] = subgroupQuadSwapDiagonal(u);
   o[b + 31u] = uint(subgroupQuadSwapHorizontal(t));
   o[b + 32u] = floatBitsToUint(subgroupQuadSwapVertical(fq + float(u & 255u)));
   o[b + 33u] = uint(subgroupElect());
   // A bool is 0 or 1 even as the identity of an exclusive AND (! is XOR 1).
   o[b + 34u] = uint(!subgroupExclusiveAnd(t));
   od[bd + 0u] = subgroupBroadcast(dv, 3u);
   od[bd + 1u] = subgroupBroadcastFirst(dv);
   od[bd + 2u] = subgroupShuffle(dv, idx);
   od[bd + 3u] = subgroupShuffleXor(dv, 1u);
   od[bd + 4u] = subgroupShuffleUp(dv, 1u);
   od[bd + 5u] = subgroupShuffleDown(dv, 7u);
   od[bd + 6u] = subgroupQuadBroadcast(dv, 1u);
   od[bd + 7u] = subgroupQuadSwapDiagonal(dv);
   dvec2 v2 = subgroupQuadSwapVertical(dvec2(dv, -dv));
   od[bd + 8u] = v2.x;
   od[bd + 9u] = v2.y;
   od[bd + 10u] = subgroupQuadSwapHorizontal(dv);
}
