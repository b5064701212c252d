// tolerance: abs 1e-3
// mod with non-power-of-two divisors, away from boundaries; y * floor(x / y) may contract.
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
   float y = float((b & 7u) + 3u);
   float x = float(int(a & 0x3ffu) - 512) * y + y * 0.5 + fr(c, -0.25, 0.25) * y;
   out_data[o + 0u] = floatBitsToUint(mod(x, y));
   out_data[o + 1u] = floatBitsToUint(mod(x, -y));
   out_data[o + 2u] = floatBitsToUint(mod(float(int(d & 0xffu)) + 0.5, 3.0));
   out_data[o + 3u] = floatBitsToUint(mod(x, y) - mod(x + y, y));
}
