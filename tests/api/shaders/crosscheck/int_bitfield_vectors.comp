// tolerance: exact
// Bitfield built-ins on uvec4/ivec2.
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
   uvec4 e = bitfieldExtract(v, 3, 11);
   ivec2 s = bitfieldExtract(ivec2(v.xy), 20, 12);
   uvec4 n = bitfieldInsert(v, v.wzyx, 8, 16);
   ivec4 m = findMSB(ivec4(v)) + findLSB(v) * 64 + bitCount(v) * 4096;
   out_data[o + 0u] = e.x ^ e.y ^ e.z ^ e.w;
   out_data[o + 1u] = uint(s.x) + uint(s.y) * 3u;
   out_data[o + 2u] = n.x ^ bitfieldReverse(n.y) ^ n.z ^ n.w;
   out_data[o + 3u] = uint(m.x + m.y + m.z + m.w);
}
