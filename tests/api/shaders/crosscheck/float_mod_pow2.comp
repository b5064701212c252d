// tolerance: abs 1e-6
// mod(x, y) = x - y * floor(x / y) with power-of-two y.
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
   float x = fx(a) * 4.0 + fr(b, 0.0, 1.0);
   float ys[4] = float[4](0.5, 2.0, -4.0, 0.25);
   float y = ys[c & 3u];
   out_data[o + 0u] = floatBitsToUint(mod(x, y));
   out_data[o + 1u] = floatBitsToUint(mod(x, 1.0));
   out_data[o + 2u] = floatBitsToUint(mod(-x, 8.0));
   out_data[o + 3u] = floatBitsToUint(mod(fx(d), -0.5));
}
