// tolerance: exact
// OpArrayLength of runtime arrays (the whole 16 KiB buffers).
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
   out_data[o + 0u] = uint(in_data.length());
   out_data[o + 1u] = uint(out_data.length()) + a * 0u;
   out_data[o + 2u] = uint(in_data.length()) - (b & 0xffu);
   out_data[o + 3u] = in_data[uint(in_data.length()) - 1u - (i & 1023u)];
}
