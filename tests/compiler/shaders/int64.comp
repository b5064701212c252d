#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic, shifts, compares and conversions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint64_t o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint64_t a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint64_t x = a[2u * i], y = a[2u * i + 1u];
   int64_t sx = int64_t(x);
   o[i * 8u + 0u] = x + y * 3ul;
   o[i * 8u + 1u] = x - y;
   o[i * 8u + 2u] = x * y;
   o[i * 8u + 3u] = y != 0ul ? x / y : 0x123456789abcdefUL;
   o[i * 8u + 4u] = (x << (i % 64u)) ^ (y >> 7u) ^ uint64_t(sx >> 9);
   o[i * 8u + 5u] = uint64_t(x < y) + (uint64_t(sx < int64_t(y)) << 1u) + (uint64_t(x == y) << 2u);
   o[i * 8u + 6u] = uint64_t(uint(x)) + uint64_t(int(y));
   o[i * 8u + 7u] = x & 0xffffffff00000000UL | (y & 0xfffful);
}
