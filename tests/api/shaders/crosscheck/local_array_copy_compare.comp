// tolerance: exact
// Whole-array copies and == on arrays and structs.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct P2 {
   uint k;
   uvec2 v;
};
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint x[4] = uint[4](a, b, c, d);
   uint y[4] = x;
   y[a & 3u] ^= b & 1u;
   P2 p = P2(a, uvec2(b, c)), q = p;
   q.v[d & 1u] += a & 1u;
   out_data[o + 0u] = uint(x == y);
   out_data[o + 1u] = uint(p == q) + uint(p != q) * 2u;
   out_data[o + 2u] = y[0] + y[3];
   out_data[o + 3u] = q.v.x ^ q.v.y;
}
