// tolerance: exact
// Signed division edges: INT_MIN / 2, INT_MAX / -1, x / INT_MIN, negative by negative.
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
   int imin = int(0x80000000u), imax = 0x7fffffff;
   int x = int(a), y = -int((b & 0xffffu) + 1u);
   out_data[o + 0u] = uint(imin / (int(c & 7u) + 2)) ^ uint(imax / -1);
   out_data[o + 1u] = uint(x / imin) + uint(imin / imin);
   out_data[o + 2u] = uint(x / y);
   out_data[o + 3u] = uint(-(x >> 1) / y) + uint(imin % 7);
}
