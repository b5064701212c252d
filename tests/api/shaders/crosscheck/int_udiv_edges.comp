// tolerance: exact
// Unsigned division edges: large divisors, divisor above dividend, 0xffffffff.
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
   uint big = b | 0x80000000u;
   uint x = (c & 1u) != 0u ? 0xffffffffu : a;
   out_data[o + 0u] = a / big + (a % big) * 3u;
   out_data[o + 1u] = x / ((d & 0xffu) + 1u);
   out_data[o + 2u] = x % (x | 1u) + (a / (a | 1u));
   out_data[o + 3u] = 0xffffffffu / ((a >> 28) + 1u) + a % 0xfffffffeu;
}
