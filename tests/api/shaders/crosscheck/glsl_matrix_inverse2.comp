// tolerance: ulp 4 abs 1e-6 rel 1e-5
// inverse(mat2) of diagonally dominant matrices (well conditioned), every element.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// A value in [-1, 1) from 16 random bits.
float unit(uint b) { return float(int(b & 0xffffu) - 32768) / 32768.0; }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u];
   mat2 m = mat2(unit(a) + 3.0, unit(a >> 16), unit(b), unit(b >> 16) - 3.0);
   mat2 r = inverse(m);
   out_data[o + 0u] = floatBitsToUint(r[0][0]);
   out_data[o + 1u] = floatBitsToUint(r[0][1]);
   out_data[o + 2u] = floatBitsToUint(r[1][0]);
   out_data[o + 3u] = floatBitsToUint(r[1][1]);
}
