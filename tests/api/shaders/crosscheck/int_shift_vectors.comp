// tolerance: exact
// Per-component shifts of uvec4/ivec4.
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
   uvec4 s = uvec4(d, c, b, a) & 31u;
   uvec4 l = v << s;
   ivec4 r = ivec4(v) >> ivec4(s);
   out_data[o + 0u] = l.x ^ l.y;
   out_data[o + 1u] = l.z + l.w;
   out_data[o + 2u] = uint(r.x + r.y);
   out_data[o + 3u] = uint(r.z) ^ (v.w >> s.w);
}
