// tolerance: exact
// subgroupMul and scans of uint, int, float and bool in divergent code, checked against each other.
// requires: subgroup (results do not depend on the subgroup size)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint wg = gl_WorkGroupID.x;
   if ((d & 3u) == 0u)
      return;
   // The highest executing lane's inclusive scan is the reduction.
   uint last = subgroupBallotFindMSB(subgroupBallot(true));
   uint x = b | 1u;
   uint mul = subgroupMul(x), inc = subgroupInclusiveMul(x), exc = subgroupExclusiveMul(x);
   float f = (a & 1u) != 0u ? 2.0 : 0.5, fa = float(c & 1023u) * 0.25;
   float fmul = subgroupMul(f), finc = subgroupInclusiveMul(f), fexc = subgroupExclusiveMul(f);
   float fmax = subgroupMax(fa), fmin = subgroupInclusiveMin(fa);
   int s = int(a), smin = subgroupMin(s), sexc = subgroupExclusiveMax(s);
   bool p = (c & 16u) != 0u;
   out_data[o] = uint(inc == exc * x) | uint(mul == subgroupShuffle(inc, last)) << 1 |
                 uint(finc == fexc * f) << 2 | uint(fmul == subgroupShuffle(finc, last)) << 3 |
                 uint(fmax >= fa) << 4 | uint(fmin <= fa) << 5 | uint(smin <= s) << 6 |
                 uint(subgroupInclusiveMax(s) == max(sexc, s)) << 7;
   out_data[o + 1u] = uint(subgroupAnd(p) == !subgroupAny(!p)) | uint(subgroupOr(p) == subgroupAny(p)) << 1 |
                      uint(subgroupXor(p) == ((subgroupBallotBitCount(subgroupBallot(p)) & 1u) != 0u)) << 2 |
                      uint(subgroupInclusiveOr(p) == (subgroupBallotInclusiveBitCount(subgroupBallot(p)) != 0u)) << 3 |
                      uint(subgroupExclusiveAnd(p) == (subgroupBallotExclusiveBitCount(subgroupBallot(!p)) == 0u)) << 4;
   // Sums of the whole workgroup's subgroups: one atomic per subgroup.
   uint sum = subgroupAdd(a & 0xffu), xo = subgroupXor(c);
   if (subgroupElect()) {
      atomicAdd(out_data[wg * 4u + 2u], sum);
      atomicXor(out_data[(16u + wg) * 4u + 2u], xo);
   }
   out_data[o + 3u] = subgroupInclusiveAdd(1u) - subgroupExclusiveAdd(1u);
}
