// tolerance: exact
// Dynamic component reads of uvec4/ivec3/uvec2.
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
   ivec3 s = ivec3(v.xyz);
   uvec2 p = v.zw;
   out_data[o + 0u] = v[d & 3u];
   out_data[o + 1u] = uint(s[int(c % 3u)]);
   out_data[o + 2u] = p[a & 1u];
   out_data[o + 3u] = v[(a >> 2) & 3u] + v[(b >> 5) & 3u];
}
