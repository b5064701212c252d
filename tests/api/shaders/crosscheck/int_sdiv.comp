// tolerance: exact
// Signed division truncates toward zero; no x/0, no INT_MIN/-1.
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
   int x = int(a), y = int(b);
   if (y == 0) y = 1;
   if (x == int(0x80000000u) && y == -1) y = 1;
   int s = int(c >> 24) - 128;
   if (s == 0) s = 3;
   out_data[o + 0u] = uint(x / y);
   out_data[o + 1u] = uint(x / s);
   out_data[o + 2u] = uint(int(d) / 16);
   out_data[o + 3u] = uint(-int(d & 0xffffu) / 3);
}
