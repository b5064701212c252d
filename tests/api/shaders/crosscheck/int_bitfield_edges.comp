// tolerance: exact
// bitfieldExtract/Insert with 0 and 32 bits, offset 31.
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
   int z = int(a & 0u);
   out_data[o + 0u] = bitfieldExtract(b, z, 32 + z) ^ bitfieldExtract(b, 31, 1);
   out_data[o + 1u] = uint(bitfieldExtract(int(c), 31, 1)) + uint(bitfieldExtract(int(c), z, z));
   out_data[o + 2u] = bitfieldInsert(a, b, z, 32 + z);
   out_data[o + 3u] = bitfieldInsert(c, d, 31, 1) ^ bitfieldInsert(c, d, 31, z);
}
