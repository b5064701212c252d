// tolerance: exact
// Swizzles: read, write, repeat, reorder.
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
   uvec4 w = v.wzyx + v.xxyy;
   w.xz = v.yw;
   w.yw += v.zz;
   uvec3 t = v.zxy;
   uvec2 p = w.wx;
   out_data[o + 0u] = w.x ^ w.y;
   out_data[o + 1u] = w.z + w.w;
   out_data[o + 2u] = t.x * 3u + t.y - t.z;
   out_data[o + 3u] = p.x - p.y;
}
