#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integers, including 64-bit constants.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int64_t s; uint64_t u; i64vec2 v; } b;
void main() {
   int64_t x = b.s * 0x123456789l - 5l;
   uint64_t y = b.u ^ 0xfedcba9876543210ul;
   b.s = x >> 3;
   b.u = y + uint64_t(gl_LocalInvocationID.x);
   b.v = i64vec2(x, int64_t(y));
}
