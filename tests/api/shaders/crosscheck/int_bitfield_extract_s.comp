// tolerance: exact
// bitfieldExtract on int sign-extends.
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
   out_data[o + 0u] = uint(bitfieldExtract(int(a), off, bits));
   out_data[o + 1u] = uint(bitfieldExtract(int(a), 4, 8));
   out_data[o + 2u] = uint(bitfieldExtract(int(d), 31, 1));
   out_data[o + 3u] = uint(bitfieldExtract(int(d), off, 0));
}
