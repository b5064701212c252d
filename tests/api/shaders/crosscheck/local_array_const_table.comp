// tolerance: exact
// Constant lookup table indexed dynamically.
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
   const uint table[8] = uint[8](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u);
   const float ft[4] = float[4](0.5, -1.25, 3.0, 100.0);
   out_data[o + 0u] = table[a & 7u];
   out_data[o + 1u] = table[b & 7u] * table[c & 7u];
   out_data[o + 2u] = floatBitsToUint(ft[d & 3u]);
   out_data[o + 3u] = table[(a >> 3) & 7u] + 1u;
}
