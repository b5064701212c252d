// tolerance: exact
// packUnorm2x16 and packSnorm2x16.
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
   vec2 v = vec2(fr(a, -0.2, 1.2), fr(b, -1.2, 1.2));
   out_data[o + 0u] = packUnorm2x16(v);
   out_data[o + 1u] = packSnorm2x16(v);
   out_data[o + 2u] = packUnorm2x16(v.yx);
   out_data[o + 3u] = packSnorm2x16(vec2(-1.0, 0.75));
}
