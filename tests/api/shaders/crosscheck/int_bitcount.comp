// tolerance: exact
// bitCount on uint/int and vectors.
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
   uvec4 v = uvec4(a, b, c, d);
   ivec4 n = bitCount(v);
   out_data[o + 0u] = uint(bitCount(a));
   out_data[o + 1u] = uint(bitCount(int(b)));
   out_data[o + 2u] = uint(n.x + n.y * 64 + n.z * 4096 + n.w * 262144);
   out_data[o + 3u] = uint(bitCount(a & b & c));
}
