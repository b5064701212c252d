// tolerance: exact
// Conversions between int and uint vectors keep the bits.
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
   ivec4 s = ivec4(uvec4(a, b, c, d));
   uvec4 u = uvec4(s * -1);
   out_data[o + 0u] = u.x;
   out_data[o + 1u] = u.y;
   out_data[o + 2u] = uint(s.z >> 1);
   out_data[o + 3u] = uint(int(d) < 0);
}
