// tolerance: ulp 8 abs 1e-6 rel 1e-5
// inverse(mat3) of diagonally dominant matrices: column i % 3, and the
// product with the matrix (close to the identity).
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
   uint w[5] = uint[5](in_data[o], in_data[o + 1u], in_data[o + 2u], in_data[o + 3u],
                       in_data[(o + 4u) & 4095u]);
   mat3 m;
   for (int k = 0; k < 9; k++)
      m[k / 3][k % 3] = unit(w[k / 2] >> (16u * uint(k & 1)));
   m += mat3(4.0);
   mat3 r = inverse(m);
   vec3 col = r[i % 3u];
   out_data[o + 0u] = floatBitsToUint(col.x);
   out_data[o + 1u] = floatBitsToUint(col.y);
   out_data[o + 2u] = floatBitsToUint(col.z);
   out_data[o + 3u] = floatBitsToUint((m * r)[i % 3u][(i / 3u) % 3u]);
}
