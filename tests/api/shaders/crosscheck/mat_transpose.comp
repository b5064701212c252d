// tolerance: ulp 0
// transpose of square and non-square matrices.
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
   mat3x2 m = mat3x2(fx(a), fx(b), fx(c), fx(d), 1.0, -2.0);
   mat2x3 t = transpose(m);
   mat4 q = transpose(mat4(vec4(fx(a)), vec4(fx(b), 1.0, 2.0, 3.0), vec4(fx(c)), vec4(4.0)));
   out_data[o + 0u] = floatBitsToUint(t[0][2]);
   out_data[o + 1u] = floatBitsToUint(t[1][1]);
   out_data[o + 2u] = floatBitsToUint(q[1][0] + q[3][1]);
   out_data[o + 3u] = floatBitsToUint(q[2][1] - t[1][2]);
}
