// tolerance: ulp 0
// float(uint) above 2^24 rounds; uint(float) near 2^32; int(float) near +-2^31.
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
   float f = fr(a, 2147483648.0, 4294967040.0);
   float g = fr(b, -2147483520.0, 2147483520.0);
   out_data[o + 0u] = floatBitsToUint(float(c | 0x01000000u));
   out_data[o + 1u] = floatBitsToUint(float(int(d | 0x40000000u)));
   out_data[o + 2u] = floatBitsToUint(float(uint(f)));
   out_data[o + 3u] = floatBitsToUint(float(int(g)));
}
