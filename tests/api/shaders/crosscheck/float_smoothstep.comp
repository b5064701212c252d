// tolerance: abs 1e-5
// smoothstep between ordered edges.
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
   float x = fr(a, -2.0, 3.0);
   float e0 = fr(b, -1.0, 0.0), e1 = fr(c, 1.0, 2.0);
   out_data[o + 0u] = floatBitsToUint(smoothstep(e0, e1, x));
   out_data[o + 1u] = floatBitsToUint(smoothstep(0.0, 1.0, x));
   out_data[o + 2u] = floatBitsToUint(smoothstep(-1.0, 1.0, fr(d, -1.5, 1.5)));
   out_data[o + 3u] = floatBitsToUint(smoothstep(vec2(e0), vec2(e1), vec2(x, -x)).y);
}
