// tolerance: exact
// Bitwise operators on uvec4 with scalars.
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
   uvec4 w = (v & 0x0f0f0f0fu) | (v.yzwx ^ 0xff00ff00u);
   uvec4 x = ~w ^ v.wzyx;
   out_data[o + 0u] = x.x;
   out_data[o + 1u] = x.y;
   out_data[o + 2u] = x.z;
   out_data[o + 3u] = x.w;
}
