// tolerance: abs 1e-5 rel 1e-5
// mix(x, y, a) = x * (1 - a) + y * a.
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
   float x = fr(a, -10.0, 10.0), y = fr(b, -10.0, 10.0), t = fr(c, 0.0, 1.0);
   vec3 m = mix(vec3(x, y, t), vec3(y, x, 1.0), vec3(t, 0.25, fr(d, 0.0, 1.0)));
   out_data[o + 0u] = floatBitsToUint(mix(x, y, t));
   out_data[o + 1u] = floatBitsToUint(m.x);
   out_data[o + 2u] = floatBitsToUint(m.y);
   out_data[o + 3u] = floatBitsToUint(m.z);
}
