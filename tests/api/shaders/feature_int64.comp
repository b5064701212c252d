#version 450
// shaderInt64: 64-bit integer arithmetic in registers and 64-bit words in a
// storage buffer. Each invocation turns its input pair into one 64-bit value
// and writes products, shifts, a signed division and a comparison of it.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In {
   uvec2 v[];
} src;
layout(set = 0, binding = 1) buffer Out {
   uint64_t v[];
} dst;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint64_t x = (uint64_t(src.v[i].y) << 32) | uint64_t(src.v[i].x);
   int64_t s = int64_t(x);
   dst.v[4 * i + 0] = x * 0x9E3779B97F4A7C15ul + uint64_t(i);
   dst.v[4 * i + 1] = (x >> 7) ^ (x << 13);
   dst.v[4 * i + 2] = uint64_t(s / int64_t(-7 - int(i)));
   dst.v[4 * i + 3] = uint64_t(s >> 9) + (x > 0x8000000000000000ul ? 1ul : 2ul);
}
