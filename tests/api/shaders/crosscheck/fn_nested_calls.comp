// tolerance: exact
// Functions calling functions, with vector parameters.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint sq(uint x) { return x * x; }
uint f2(uvec2 v) { return sq(v.x) ^ v.y; }
uint f3(uvec3 v) { return f2(v.xy) + f2(v.yz) * 3u + f2(v.zx); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   out_data[o + 0u] = f3(uvec3(a, b, c));
   out_data[o + 1u] = f3(uvec3(d));
   out_data[o + 2u] = sq(a) + sq(b);
   out_data[o + 3u] = f3(uvec3(sq(c), sq(d), a));
}
