// tolerance: exact
// pack of unpack returns the bits (unorm, half without NaN).
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
   out_data[o + 0u] = packUnorm4x8(unpackUnorm4x8(a));
   out_data[o + 1u] = packUnorm2x16(unpackUnorm2x16(b));
   out_data[o + 2u] = packHalf2x16(unpackHalf2x16(c & 0x7bff7bffu));
   out_data[o + 3u] = packSnorm4x8(unpackSnorm4x8(d & 0x7f7f7f7fu));
}
