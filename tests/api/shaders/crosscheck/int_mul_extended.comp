// tolerance: exact
// umulExtended / imulExtended (OpUMulExtended, OpSMulExtended): both halves,
// scalars and vectors, with extreme operands.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   if ((i & 7u) == 0u)
      a = 0xffffffffu;
   if ((i & 15u) == 1u)
      b = 0x80000000u;
   uint hi, lo;
   umulExtended(a, b, hi, lo);
   int shi, slo;
   imulExtended(int(c), int(d), shi, slo);
   uvec2 vhi, vlo;
   umulExtended(uvec2(a, c), uvec2(d, b), vhi, vlo);
   ivec2 ihi, ilo;
   imulExtended(ivec2(int(a), int(b)), ivec2(int(d), -int(c)), ihi, ilo);
   out_data[o + 0u] = hi ^ (lo * 3u);
   out_data[o + 1u] = uint(shi) ^ (uint(slo) * 5u);
   out_data[o + 2u] = vhi.x ^ vlo.y ^ (vhi.y * 7u) ^ (vlo.x * 11u);
   out_data[o + 3u] = uint(ihi.x) ^ uint(ilo.y) ^ (uint(ihi.y) * 13u) ^ (uint(ilo.x) * 17u);
}
