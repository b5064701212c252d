// tolerance: ulp 16 abs 1e-6 rel 1e-5
// inverse(mat4) of diagonally dominant matrices: column i % 4.
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
   m += mat4(-5.0 + float(i % 2u) * 10.0);
   vec4 col = inverse(m)[i % 4u];
   out_data[o + 0u] = floatBitsToUint(col.x);
   out_data[o + 1u] = floatBitsToUint(col.y);
   out_data[o + 2u] = floatBitsToUint(col.z);
   out_data[o + 3u] = floatBitsToUint(col.w);
}
