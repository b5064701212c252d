// tolerance: abs 1e-5 rel 1e-6
// mat3 times vec3 and mat3.
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
   mat3 m = mat3(fr(a, -1.0, 1.0), fr(b, -1.0, 1.0), fr(c, -1.0, 1.0), fr(d, -1.0, 1.0),
                 fr(a >> 3, -1.0, 1.0), fr(b >> 3, -1.0, 1.0), fr(c >> 3, -1.0, 1.0),
                 fr(d >> 3, -1.0, 1.0), 1.0);
   vec3 v = vec3(fr(d, -2.0, 2.0), 0.5, -1.0);
   vec3 r = m * v;
   mat3 p = m * m;
   out_data[o + 0u] = floatBitsToUint(r.x);
   out_data[o + 1u] = floatBitsToUint(r.y + r.z);
   out_data[o + 2u] = floatBitsToUint(p[1][2]);
   out_data[o + 3u] = floatBitsToUint(p[2][0] + (v * m).y);
}
