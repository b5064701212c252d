// tolerance: exact
// modf (GLSL.std.450 Modf), frexp (FrexpStruct) and ldexp on normal values,
// bit for bit: all three are exact.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   // Normal floats with exponents in [-60, 67] (ldexp below stays normal).
   float x = uintBitsToFloat((a & 0x807fffffu) | ((67u + (a >> 24) % 128u) << 23));
   vec2 v = vec2(float(int(b & 0xffffu) - 32768) / 64.0, uintBitsToFloat((c & 0x80ffffffu) | 0x3f000000u));
   float w;
   float f = modf(x, w);
   vec2 vw;
   vec2 vf = modf(v, vw);
   int e;
   float s = frexp(x, e);
   ivec2 ve;
   vec2 vs = frexp(v, ve);
   int k = int(d % 121u) - 60;
   out_data[o + 0u] = floatBitsToUint(f) ^ (floatBitsToUint(w) * 3u);
   out_data[o + 1u] = floatBitsToUint(vf.x) ^ floatBitsToUint(vw.y) ^ (floatBitsToUint(vf.y) * 5u) ^ (floatBitsToUint(vw.x) * 9u);
   out_data[o + 2u] = floatBitsToUint(s) ^ uint(e) ^ (floatBitsToUint(vs.y) * 3u) ^ (uint(ve.x) * 7u) ^ (uint(ve.y) * 11u) ^ (floatBitsToUint(vs.x) * 13u);
   out_data[o + 3u] = floatBitsToUint(ldexp(x, k)) ^ (floatBitsToUint(ldexp(v, ivec2(-k, k / 2)).y) * 3u);
}
