// tolerance: abs 1e-6 rel 1e-6
// log2: 3 ulp outside [0.5, 2], absolute 2^-21 inside.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Uniform in [lo, hi), 24 random bits.
float fr(uint b, float lo, float hi) { return lo + (hi - lo) * (float(b >> 8) * (1.0 / 16777216.0)); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   float x = fr(a, 0.01, 1000.0), y = fr(b, 0.5, 2.0);
   out_data[o + 0u] = floatBitsToUint(log2(x));
   out_data[o + 1u] = floatBitsToUint(log2(y));
   out_data[o + 2u] = floatBitsToUint(log2(float((c & 0xffffu) + 1u)));
   out_data[o + 3u] = floatBitsToUint(log2(fr(d, 1e-6, 1e-2)));
}
