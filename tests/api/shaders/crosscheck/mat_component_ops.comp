// tolerance: ulp 0
// matrixCompMult, matrix + - and scalar * on exact values.
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
   mat3 m = mat3(fx(a), fx(b), fx(c), fx(d), 1.0, 2.0, 0.5, -1.0, 0.25);
   mat3 n = transpose(m);
   mat3 r = matrixCompMult(m, n) + m - n * 0.5;
   out_data[o + 0u] = floatBitsToUint(r[0][0]);
   out_data[o + 1u] = floatBitsToUint(r[1][2]);
   out_data[o + 2u] = floatBitsToUint(r[2][1]);
   out_data[o + 3u] = floatBitsToUint((-r)[0][1]);
}
