// tolerance: exact
// packUnorm4x8 clamps to [0, 1] and rounds c * 255.
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
   vec4 v = vec4(fr(a, -0.2, 1.2), fr(b, 0.0, 1.0), fr(c, 0.0, 1.0), fr(d, 0.5, 1.5));
   out_data[o + 0u] = packUnorm4x8(v);
   out_data[o + 1u] = packUnorm4x8(v.wzyx);
   out_data[o + 2u] = packUnorm4x8(vec4(0.0, 1.0, 0.5 + 1.0 / 1024.0, 0.25));
   out_data[o + 3u] = packUnorm4x8(v * 0.5);
}
