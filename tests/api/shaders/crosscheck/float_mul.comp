// tolerance: ulp 0
// float * is correctly rounded.
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
   float x = fr(a, -1000.0, 1000.0), y = fr(b, -1.0, 1.0), z = fr(c, -1e6, 1e6);
   out_data[o + 0u] = floatBitsToUint(x * y);
   out_data[o + 1u] = floatBitsToUint(x * z);
   out_data[o + 2u] = floatBitsToUint(y * y);
   out_data[o + 3u] = floatBitsToUint(z * 0.1);
}
