#version 450
// Subgroup operations on 16- and 64-bit integers (shaderSubgroupExtendedTypes
// with shaderInt16 and shaderInt64). Each invocation reads one 32-bit value,
// narrows or widens it, and writes what the subgroup operations give, as
// 32-bit words (the device has no 16-bit storage).
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Io {
   int v[64];
   int o[64][10];
} io;
void main()
{
   uint i = gl_LocalInvocationIndex;
   int x = io.v[i];
   int16_t s = int16_t(x);
   uint16_t u = uint16_t(x);
   int64_t l = int64_t(x) * 1000000007l;
   io.o[i][0] = int(subgroupAdd(s));
   io.o[i][1] = int(subgroupMin(s));
   io.o[i][2] = int(subgroupMax(s));
   io.o[i][3] = int(subgroupExclusiveMin(s));
   io.o[i][4] = int(subgroupInclusiveAdd(u));
   io.o[i][5] = int(subgroupExclusiveMax(u));
   io.o[i][6] = int(subgroupShuffleXor(s, 1u));
   io.o[i][7] = int(subgroupBroadcastFirst(u));
   int64_t sum = subgroupAdd(l);
   io.o[i][8] = int(sum & 0xffffffffl);
   io.o[i][9] = int(subgroupExclusiveMax(l) >> 32);
}
