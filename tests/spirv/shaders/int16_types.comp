#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// 16-bit integer storage and arithmetic.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int16_t s[8]; uint16_t u[8]; u16vec2 v; } b;
void main() {
   uint i = gl_LocalInvocationID.x & 7u;
   int16_t x = b.s[i] * int16_t(-3);
   uint16_t y = b.u[i] / uint16_t(7);
   b.s[i] = x;
   b.u[i] = y;
   b.v = b.v * u16vec2(y, uint16_t(x));
}
