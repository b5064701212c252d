// tolerance: exact
// lessThan/equal/... with any and all.
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
   uvec4 x = uvec4(a, b, c, d), y = x.yxwz;
   ivec4 s = ivec4(x), t = ivec4(y);
   bvec4 l = lessThan(x, y), e = equal(x & 3u, y & 3u), g = greaterThanEqual(s, t);
   bvec4 n = notEqual(x & 1u, uvec4(0u));
   out_data[o + 0u] = uint(l.x) | uint(l.y) << 1 | uint(l.z) << 2 | uint(l.w) << 3;
   out_data[o + 1u] = uint(any(e)) | uint(all(e)) << 1;
   out_data[o + 2u] = uint(g.x) | uint(g.y) << 1 | uint(g.z) << 2 | uint(g.w) << 3;
   out_data[o + 3u] = uint(any(n)) + uint(all(n)) * 2u + uint(lessThanEqual(s, t).z) * 4u;
}
