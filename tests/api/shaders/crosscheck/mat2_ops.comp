// tolerance: ulp 0
// mat2 times vec2, mat2 and scalar, with exact values.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   mat2 m = mat2(fx(a), fx(b), fx(c), fx(d)) * 0.125;
   vec2 v = vec2(fx(d), fx(a)) * 0.125;
   vec2 r = m * v;
   mat2 p = m * transpose(m) * 2.0;
   out_data[o + 0u] = floatBitsToUint(r.x);
   out_data[o + 1u] = floatBitsToUint(r.y);
   out_data[o + 2u] = floatBitsToUint(p[0][1]);
   out_data[o + 3u] = floatBitsToUint(p[1][1] + (v * m).x);
}
