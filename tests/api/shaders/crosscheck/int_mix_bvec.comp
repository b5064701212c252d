// tolerance: exact
// mix(uvec4, uvec4, bvec4) and mix(ivec, ivec, bvec).
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
   uvec4 x = uvec4(a, b, c, d), y = x.wzyx ^ seed;
   bvec4 m = notEqual(x & uvec4(1u, 2u, 4u, 8u), uvec4(0u));
   uvec4 r = mix(x, y, m);
   ivec2 s = mix(ivec2(x.xy), ivec2(-1, -2), bvec2(m.zw));
   out_data[o + 0u] = r.x ^ r.y;
   out_data[o + 1u] = r.z + r.w;
   out_data[o + 2u] = uint(s.x);
   out_data[o + 3u] = uint(s.y);
}
