#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
// 8-bit integer storage and arithmetic.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int8_t s[16]; uint8_t u[16]; i8vec4 v; } b;
void main() {
   uint i = gl_LocalInvocationID.x & 15u;
   int8_t x = b.s[i] * int8_t(3);
   uint8_t y = b.u[i] + uint8_t(200);
   b.s[i] = x >> 1;
   b.u[i] = y | uint8_t(1);
   b.v = b.v + i8vec4(x);
}
