#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// 64-bit integers in subgroup arithmetic (shaderSubgroupExtendedTypes; the
// serial scan handles them): reduce, scans and clusters 1..32 in lanes that
// sel[] leaves active.
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer Sel { uint sel[]; };
layout(set = 0, binding = 1) readonly buffer Val { uint val[]; };
layout(set = 0, binding = 2) buffer Out { uint64_t o[]; };

#define ALL9(OP, x, k)                                                         \
   o[b + k + 0u] = uint64_t(subgroup##OP(x));                                  \
   o[b + k + 1u] = uint64_t(subgroupInclusive##OP(x));                         \
   o[b + k + 2u] = uint64_t(subgroupExclusive##OP(x));                         \
   o[b + k + 3u] = uint64_t(subgroupClustered##OP(x, 1u));                     \
   o[b + k + 4u] = uint64_t(subgroupClustered##OP(x, 2u));                     \
   o[b + k + 5u] = uint64_t(subgroupClustered##OP(x, 4u));                     \
   o[b + k + 6u] = uint64_t(subgroupClustered##OP(x, 8u));                     \
   o[b + k + 7u] = uint64_t(subgroupClustered##OP(x, 16u));                    \
   o[b + k + 8u] = uint64_t(subgroupClustered##OP(x, 32u));

void main()
{
   uint i = gl_GlobalInvocationID.x, b = i * 81u, u = val[i];
   uint64_t x = uint64_t(u) << 32 | uint64_t(u * 2654435761u);
   int64_t s = int64_t(x);
   if (sel[i] != 0u) {
      ALL9(Add, x, 0u)
      ALL9(Mul, x, 9u)
      ALL9(Min, x, 18u)
      ALL9(Max, x, 27u)
      ALL9(And, x, 36u)
      ALL9(Or, x, 45u)
      ALL9(Xor, x, 54u)
      ALL9(Min, s, 63u)
      ALL9(Max, s, 72u)
   }
}
