// tolerance: abs 1e-5 rel 1e-6
// mat4 times vec4 and mat4.
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
   mat4 m = mat4(1.0);
   for (int k = 0; k < 16; k++)
      m[k >> 2][k & 3] = fr(in_data[(o + uint(k) * 7u) & 4095u], -1.0, 1.0);
   vec4 v = vec4(fr(a, -2.0, 2.0), fr(b, -2.0, 2.0), 1.0, -0.5);
   vec4 r = m * v;
   mat4 p = m * transpose(m);
   out_data[o + 0u] = floatBitsToUint(r.x + r.w);
   out_data[o + 1u] = floatBitsToUint(r.y - r.z);
   out_data[o + 2u] = floatBitsToUint(p[3][1]);
   out_data[o + 3u] = floatBitsToUint((v * m).z + p[0][0]);
}
