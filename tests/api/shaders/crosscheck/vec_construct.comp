// tolerance: exact
// Vector constructors from scalars, vectors and mixed types.
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
   uvec2 p = uvec2(a, b);
   uvec4 v = uvec4(p, c, d);
   uvec4 w = uvec4(v.zw, p.yx);
   uvec3 x = uvec3(5u);
   ivec4 s = ivec4(uvec3(v.xyz), -1);
   bvec4 m = bvec4(uvec4(a & 1u, b & 2u, 0u, 1u));
   out_data[o + 0u] = w.x + w.y * 3u + w.z * 5u + w.w * 7u;
   out_data[o + 1u] = x.x + x.y + x.z + v.w;
   out_data[o + 2u] = uint(s.w) ^ uint(s.x);
   out_data[o + 3u] = uint(m.x) | uint(m.y) << 1 | uint(m.z) << 2 | uint(m.w) << 3;
}
