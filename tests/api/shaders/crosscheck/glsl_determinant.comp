// tolerance: ulp 8 abs 1e-5 rel 1e-5
// determinant of mat2, mat3, mat4 (random, not only well conditioned: the
// absolute bound covers cancellation) and of a mat4 with a known value.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
float unit(uint b) { return float(int(b & 0xffffu) - 32768) / 32768.0; }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   mat4 m;
   for (uint k = 0u; k < 16u; k++)
      m[k / 4u][k % 4u] = unit(in_data[(o + k / 2u) & 4095u] >> (16u * (k & 1u)));
   out_data[o + 0u] = floatBitsToUint(determinant(mat2(m)));
   out_data[o + 1u] = floatBitsToUint(determinant(mat3(m)));
   out_data[o + 2u] = floatBitsToUint(determinant(m));
   // Triangular times a permutation: the product of the diagonal, negated.
   mat4 t = mat4(2.0, 0.0, 0.0, 0.0, m[1][0], 3.0, 0.0, 0.0, m[2][0], m[2][1], -1.5, 0.0,
                 m[3][0], m[3][1], m[3][2], 0.5 + float(i));
   out_data[o + 3u] = floatBitsToUint(determinant(mat4(t[1], t[0], t[2], t[3])));
}
