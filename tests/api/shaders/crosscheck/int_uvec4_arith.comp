// tolerance: exact
// uvec4 arithmetic and modulo.
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
   uvec4 x = uvec4(a, b, c, d), y = x.yzwx | 1u;
   uvec4 r = x % y + x * 3u - y;
   out_data[o + 0u] = r.x;
   out_data[o + 1u] = r.y;
   out_data[o + 2u] = r.z;
   out_data[o + 3u] = r.w;
}
