// tolerance: exact
// Comparisons at INT_MIN, INT_MAX, 0 and 0x80000000u.
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
   int imin = int(0x80000000u | (a & 0u)), imax = 0x7fffffff + int(a & 0u);
   uint big = 0x80000000u + (b & 1u);
   int x = int(c);
   uint r = uint(imin < imax) | uint(imin < x || x == imin) << 1 | uint(big > 0x7fffffffu) << 2 |
            uint(imax > x || x == imax) << 3 | uint(uint(imin) > uint(imax)) << 4 | uint(big >= d) << 5;
   out_data[o + 0u] = r;
   out_data[o + 1u] = uint(min(imin, x));
   out_data[o + 2u] = uint(max(imax, x));
   out_data[o + 3u] = min(big, d);
}
