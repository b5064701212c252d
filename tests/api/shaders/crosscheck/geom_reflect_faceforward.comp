// tolerance: abs 1e-4 rel 1e-5
// reflect and faceforward.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Uniform in [lo, hi), 24 random bits.
float fr(uint b, float lo, float hi) { return lo + (hi - lo) * (float(b >> 8) * (1.0 / 16777216.0)); }
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   vec3 n = normalize(vec3(fr(a, 0.5, 1.0), fr(b, -1.0, 1.0), fr(c, -1.0, 1.0)));
   vec3 v = vec3(fr(d, -1.0, 1.0), fr(a >> 4, -1.0, 1.0), 0.5);
   vec3 r = reflect(v, n);
   vec3 f = faceforward(n, v, vec3(fx(b), fx(c), fx(d)));
   out_data[o + 0u] = floatBitsToUint(r.x);
   out_data[o + 1u] = floatBitsToUint(r.y + r.z);
   out_data[o + 2u] = floatBitsToUint(f.x);
   out_data[o + 3u] = floatBitsToUint(f.y - f.z);
}
