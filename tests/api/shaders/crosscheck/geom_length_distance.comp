// tolerance: rel 1e-5 abs 1e-6
// length and distance of vec2/vec3/vec4.
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
   vec4 v = vec4(fr(a, -10.0, 10.0), fr(b, -10.0, 10.0), fr(c, -10.0, 10.0), fr(d, -10.0, 10.0));
   out_data[o + 0u] = floatBitsToUint(length(v));
   out_data[o + 1u] = floatBitsToUint(length(v.xy));
   out_data[o + 2u] = floatBitsToUint(distance(v.xyz, v.wzy));
   out_data[o + 3u] = floatBitsToUint(length(v.x));
}
