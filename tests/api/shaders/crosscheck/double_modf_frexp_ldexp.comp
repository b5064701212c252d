// tolerance: exact
// requires: float64
// modf, frexp, ldexp, fract, sign, step on doubles, bit for bit (all exact).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint fold(double x) { uvec2 u = unpackDouble2x32(x); return u.x ^ (u.y * 0x9e3779b1u); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   // Normal doubles with exponents in [-60, 67] and a random sign.
   double x = packDouble2x32(uvec2(a, (b & 0x800fffffu) | ((1023u - 60u + (b >> 20) % 128u) << 20)));
   dvec2 v = dvec2(double(int(c & 0xffffu) - 32768) / 64.0, x * 0.75);
   double w;
   double f = modf(x, w);
   dvec2 vw;
   dvec2 vf = modf(v, vw);
   int e;
   double s = frexp(x, e);
   ivec2 ve;
   dvec2 vs = frexp(v, ve);
   int k = int(d % 201u) - 100;
   out_data[o + 0u] = fold(f) ^ (fold(w) * 3u) ^ (fold(vf.x) * 5u) ^ (fold(vw.y) * 7u) ^ (fold(vf.y) * 9u) ^ (fold(vw.x) * 11u);
   out_data[o + 1u] = fold(s) ^ uint(e) ^ (fold(vs.y) * 3u) ^ (uint(ve.x) * 7u) ^ (uint(ve.y) * 11u) ^ (fold(vs.x) * 13u);
   out_data[o + 2u] = fold(ldexp(x, k)) ^ (fold(ldexp(v, ivec2(-k, k / 2)).y) * 3u);
   out_data[o + 3u] = fold(fract(v.x)) ^ (fold(sign(x)) * 3u) ^ (fold(step(v.x, v.y)) * 5u) ^ (fold(fract(x)) * 7u);
}
