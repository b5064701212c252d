// tolerance: exact
// Unsigned comparisons packed into bits.
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
   uint y = (c & 1u) != 0u ? a : b;
   uint r = uint(a < y) | uint(a <= y) << 1 | uint(a > y) << 2 | uint(a >= y) << 3 |
            uint(a == y) << 4 | uint(a != y) << 5 | uint(d < 0x80000000u) << 6;
   out_data[o + 0u] = r;
   out_data[o + 1u] = uint(a < b);
   out_data[o + 2u] = uint(c >= d);
   out_data[o + 3u] = uint(b == b);
}
