// tolerance: ulp 0
// Dynamic component access on vec4/vec3 of floats.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   vec4 v = vec4(fx(a), fx(b), fx(c), fx(d));
   vec3 w = v.wxy;
   w[c % 3u] = 0.5;
   v[a & 3u] *= 2.0;
   out_data[o + 0u] = floatBitsToUint(v[b & 3u]);
   out_data[o + 1u] = floatBitsToUint(w[d % 3u]);
   out_data[o + 2u] = floatBitsToUint(v[0] + w[2]);
   out_data[o + 3u] = floatBitsToUint(v[(d >> 8) & 3u] - w[(d >> 12) % 3u]);
}
