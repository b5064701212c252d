// tolerance: exact
// bitfieldInsert with offset + bits <= 32.
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
   int off = int(b & 31u);
   int bits = int(c % uint(33 - off));
   out_data[o + 0u] = bitfieldInsert(a, d, off, bits);
   out_data[o + 1u] = uint(bitfieldInsert(int(a), int(d), 8, 8));
   out_data[o + 2u] = bitfieldInsert(a, d, 0, 32);
   out_data[o + 3u] = bitfieldInsert(a, d, off, 0);
}
