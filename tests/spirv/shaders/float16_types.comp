#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// Half-precision storage and arithmetic.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float16_t h[4]; f16vec4 v; float f; } b;
void main() {
   float16_t a = b.h[gl_LocalInvocationID.x & 3u] * float16_t(1.5);
   f16vec4 v = b.v + f16vec4(a);
   b.v = v * float16_t(0.25);
   b.f = float(a) + float(v.x);
}
