#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
// 8/16-bit integers and 16-bit floats: loads, stores, wrapping arithmetic, conversions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int32_t o[]; };
layout(set = 0, binding = 1) buffer In {
   int8_t s8[64];
   uint8_t u8[64];
   int16_t s16[64];
   uint16_t u16[64];
   float16_t h[64];
} inp;
layout(set = 0, binding = 2) buffer Narrow { uint8_t n8[64]; int16_t n16[64]; float16_t nh[64]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   int8_t a = inp.s8[i];
   uint8_t b = inp.u8[i];
   int16_t c = inp.s16[i];
   uint16_t d = inp.u16[i];
   float16_t h = inp.h[i];
   o[i * 8u + 0u] = int32_t(a) + int32_t(b);
   o[i * 8u + 1u] = int32_t(int8_t(a * int8_t(3)));          // wraps at 8 bits
   o[i * 8u + 2u] = int32_t(uint8_t(b + uint8_t(200)));      // wraps at 8 bits
   o[i * 8u + 3u] = int32_t(c / int16_t(7)) + int32_t(c < int16_t(0));
   o[i * 8u + 4u] = int32_t(uint16_t(d * uint16_t(5)) >> 3);
   o[i * 8u + 5u] = int32_t(float(h) * 4.0);
   o[i * 8u + 6u] = int32_t(h * float16_t(2.0) + float16_t(0.5) > float16_t(3.0));
   o[i * 8u + 7u] = int32_t(int16_t(a)) * 1000 + int32_t(uint16_t(b));
   n8[i] = uint8_t(b ^ uint8_t(0x5a));
   n16[i] = int16_t(c - int16_t(1000));
   nh[i] = h * float16_t(0.5) + float16_t(1.0);
}
