// tolerance: exact
// Parity and population count by folding.
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
   uint x = a ^ (a >> 16);
   x ^= x >> 8;
   x ^= x >> 4;
   x ^= x >> 2;
   x ^= x >> 1;
   out_data[o + 0u] = x & 1u;
   out_data[o + 1u] = uint(bitCount(a)) & 1u;
   out_data[o + 2u] = uint(bitCount(b ^ c));
   out_data[o + 3u] = uint(bitCount(~d));
}
