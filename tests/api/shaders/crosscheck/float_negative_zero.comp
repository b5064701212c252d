// tolerance: ulp 0
// Sign of zero in products and sums (bits compared as numbers).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   float z = -0.0 * float(a & 1u);
   out_data[o + 0u] = floatBitsToUint(z);
   out_data[o + 1u] = floatBitsToUint(z + 0.0);
   out_data[o + 2u] = floatBitsToUint(abs(z));
   out_data[o + 3u] = floatBitsToUint(1.0 - z);
}
