// tolerance: exact
// requires: int64 int16
// GLSL.std.450 SAbs, SSign, S/U Min, Max, Clamp on 64-bit and 16-bit
// integers (16-bit values live extended in 32-bit registers: every result
// must come back extended per its type).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint fold(uint64_t x) { return uint(x) ^ (uint(x >> 32) * 0x9e3779b1u); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   int64_t x = int64_t(uint64_t(a) | uint64_t(b) << 32);
   int64_t y = int64_t(uint64_t(c) | uint64_t(d) << 32);
   if ((i & 7u) == 0u)
      x = int64_t(0x8000000000000000ul); // abs of the minimum wraps
   if ((i & 7u) == 1u)
      y = 0l;
   int64_t lo = min(x, y), hi = max(x, y);
   uint64_t ux = uint64_t(x), uy = uint64_t(y);
   out_data[o + 0u] = fold(uint64_t(abs(x))) ^ (fold(uint64_t(sign(y))) * 3u) ^
                      (fold(uint64_t(clamp(int64_t(c) - 0x80000000l, lo >> 33, hi >> 33))) * 5u);
   out_data[o + 1u] = fold(min(ux, uy)) ^ (fold(max(ux, uy)) * 3u) ^
                      (fold(clamp(ux ^ uy, uint64_t(d), uint64_t(d) + 0x100000000ul)) * 7u);
   int16_t s = int16_t(a), t = int16_t(b >> 16), r = int16_t(c);
   uint16_t us = uint16_t(a >> 8), ut = uint16_t(d), ur = uint16_t(d >> 16);
   if ((i & 15u) == 2u)
      s = int16_t(-32768);
   out_data[o + 2u] = uint(int(abs(s))) ^ (uint(int(sign(t))) << 8) ^ (uint(int(min(s, t))) * 3u) ^
                      (uint(int(max(s, r))) * 5u) ^
                      (uint(int(clamp(s, min(t, r), max(t, r)))) * 7u);
   out_data[o + 3u] = uint(min(us, ut)) ^ (uint(max(ut, ur)) << 16) ^
                      (uint(clamp(us, min(ut, ur), max(ut, ur))) * 9u) ^ uint(int(s + t) * int(r));
}
