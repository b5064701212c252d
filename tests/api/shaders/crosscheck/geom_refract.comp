// tolerance: ulp 64 abs 1e-5
// refract for vec3 and vec2 with eta below and above 1 (total internal
// reflection gives 0). The absolute bound: normalize() may differ by a few
// ulp between implementations, and near the critical angle sqrt(k) turns
// that into a few 1e-6 (measured: at most 6.2e-6 between vkppu and
// llvmpipe; on the first word beyond 1e-6, each was within 1.6e-6 of a
// double-precision reference).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
float unit(uint b) { return float(int(b & 0xffffu) - 32768) / 32768.0; }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   vec3 I = normalize(vec3(unit(a), unit(a >> 16), -1.0));
   vec3 N = normalize(vec3(unit(b) * 0.25, unit(b >> 16) * 0.25, 1.0));
   float eta = 0.5 + float(c & 0xffu) / 128.0;
   vec3 r = refract(I, N, eta);
   vec2 r2 = refract(normalize(vec2(unit(d), -1.0)), vec2(0.0, 1.0), 1.0 / eta);
   out_data[o + 0u] = floatBitsToUint(r.x);
   out_data[o + 1u] = floatBitsToUint(r.y);
   out_data[o + 2u] = floatBitsToUint(r.z);
   out_data[o + 3u] = floatBitsToUint(r2.x + r2.y);
}
