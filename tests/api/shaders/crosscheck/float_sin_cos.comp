// tolerance: abs 0.001
// sin and cos on [-pi, pi]: absolute error 2^-11.
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
   float x = fr(a, -3.14159, 3.14159), y = fr(b, -3.14159, 3.14159);
   out_data[o + 0u] = floatBitsToUint(sin(x));
   out_data[o + 1u] = floatBitsToUint(cos(x));
   out_data[o + 2u] = floatBitsToUint(sin(y));
   out_data[o + 3u] = floatBitsToUint(cos(-y));
}
