// tolerance: exact
// Structs by value through functions.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct Pair {
   uint k;
   ivec2 v;
};
Pair step_pair(Pair p, uint s)
{
   p.k = p.k * 5u + s;
   p.v = p.v.yx - ivec2(s);
   return p;
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   Pair p = Pair(a, ivec2(int(b), int(c)));
   Pair q = step_pair(p, d);
   q = step_pair(q, 3u);
   out_data[o + 0u] = q.k;
   out_data[o + 1u] = uint(q.v.x);
   out_data[o + 2u] = uint(q.v.y);
   out_data[o + 3u] = step_pair(Pair(0u, ivec2(0)), a).k;
}
