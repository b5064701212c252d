// tolerance: exact
// Signed comparisons packed into bits.
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
   int x = int(a), y = (c & 1u) != 0u ? x : int(b);
   uint r = uint(x < y) | uint(x <= y) << 1 | uint(x > y) << 2 | uint(x >= y) << 3 |
            uint(x == y) << 4 | uint(x != y) << 5 | uint(int(d) < 0) << 6;
   out_data[o + 0u] = r;
   out_data[o + 1u] = uint(int(a) < int(b));
   out_data[o + 2u] = uint(int(c) >= int(d));
   out_data[o + 3u] = uint(int(b) > -5);
}
