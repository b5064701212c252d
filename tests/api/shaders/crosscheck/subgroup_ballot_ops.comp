// tolerance: exact
// subgroupInverseBallot, BallotBitExtract, BallotFindLSB/MSB and bit counts against each other.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_SubgroupInvocationID;
   if ((d & 7u) == 0u)
      return; // some lanes do not take part
   bool p = (a & 3u) != 0u;
   uvec4 bal = subgroupBallot(p);
   uint n = subgroupBallotBitCount(bal), below = subgroupBallotExclusiveBitCount(bal);
   uint upto = subgroupBallotInclusiveBitCount(bal);
   out_data[o] = uint(subgroupInverseBallot(bal) == p) | uint(subgroupBallotBitExtract(bal, l) == p) << 1 |
                 uint(upto - below == uint(p)) << 2 | uint(upto <= n) << 3;
   // The lowest and highest lanes whose predicate holds know it.
   bool lowest = p && below == 0u, highest = p && upto == n;
   out_data[o + 1u] = n == 0u ? 7u
                              : uint((subgroupBallotFindLSB(bal) == l) == lowest) |
                                    uint((subgroupBallotFindMSB(bal) == l) == highest) << 1 |
                                    uint(subgroupBallotFindLSB(bal) <= subgroupBallotFindMSB(bal)) << 2;
   // A ballot that differs per lane, read at an index each lane picks
   // (below 4, within any subgroup size).
   uint k = (c >> 8) & 3u;
   out_data[o + 2u] = uint(subgroupBallotBitExtract(uvec4(b, c, ~b, a), k)) ^ ((b >> k) & 1u);
   out_data[o + 3u] = uint(subgroupInverseBallot(subgroupBallot(true)));
}
