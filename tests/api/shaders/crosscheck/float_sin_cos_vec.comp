// tolerance: abs 0.002
// sin and cos of vec4 on [-pi, pi].
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
   vec4 v = vec4(fr(a, -3.14159, 3.14159), fr(b, -3.14159, 3.14159), fr(c, -1.0, 1.0), fr(d, -3.14159, 0.0));
   vec4 s = sin(v), k = cos(v);
   out_data[o + 0u] = floatBitsToUint(s.x + k.y);
   out_data[o + 1u] = floatBitsToUint(s.y - k.x);
   out_data[o + 2u] = floatBitsToUint(s.z * 0.5 + k.z * 0.25);
   out_data[o + 3u] = floatBitsToUint(s.w + k.w);
}
