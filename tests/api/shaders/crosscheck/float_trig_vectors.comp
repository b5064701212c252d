// tolerance: abs 0.002
// sin/cos/tan of vec3 on [-pi/2, pi/2] mixed with arithmetic.
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
   vec3 v = vec3(fr(a, -1.5, 1.5), fr(b, -1.5, 1.5), fr(c, -1.0, 1.0));
   vec3 s = sin(v) * 0.5 + cos(v * 0.5) * 0.25;
   out_data[o + 0u] = floatBitsToUint(s.x);
   out_data[o + 1u] = floatBitsToUint(s.y);
   out_data[o + 2u] = floatBitsToUint(s.z);
   out_data[o + 3u] = floatBitsToUint(tan(v.z));
}
