// tolerance: exact
// uvec2/uvec3/uvec4 of every component count in one expression.
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
   uvec2 v2 = uvec2(a, b) * 3u;
   uvec3 v3 = uvec3(a, b, c) ^ uvec3(v2, 9u);
   uvec4 v4 = uvec4(v3, d) + uvec4(v2, v2.yx);
   out_data[o + 0u] = v2.x + v2.y;
   out_data[o + 1u] = v3.x ^ v3.y ^ v3.z;
   out_data[o + 2u] = v4.x - v4.w;
   out_data[o + 3u] = v4.y * v4.z;
}
