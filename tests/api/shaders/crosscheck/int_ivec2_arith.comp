// tolerance: exact
// ivec2 arithmetic, component-wise.
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
   ivec2 x = ivec2(a, b), y = ivec2(c, d | 1u);
   ivec2 r = x * y + x - (y >> 3);
   ivec2 q = (x & 0xffff) / ivec2(7, -3);
   out_data[o + 0u] = uint(r.x);
   out_data[o + 1u] = uint(r.y);
   out_data[o + 2u] = uint(q.x);
   out_data[o + 3u] = uint(q.y);
}
