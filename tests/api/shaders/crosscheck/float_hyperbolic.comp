// tolerance: abs 1e-3 rel 1e-3
// sinh, cosh, tanh (inherited from exp).
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
   float x = fr(a, -5.0, 5.0);
   out_data[o + 0u] = floatBitsToUint(sinh(x));
   out_data[o + 1u] = floatBitsToUint(cosh(x));
   out_data[o + 2u] = floatBitsToUint(tanh(x));
   out_data[o + 3u] = floatBitsToUint(tanh(fr(b, -20.0, 20.0)));
}
