// tolerance: exact
// Chains of ternaries and short-circuit evaluation.
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
   uint r = a < b ? (c < d ? 1u : 2u) : (c > d ? 3u : 4u);
   bool p = (a & 1u) != 0u && (b / (a | 1u)) > 2u;
   bool q = (c & 1u) == 0u || (d % ((c >> 1) | 1u)) == 0u;
   out_data[o + 0u] = r;
   out_data[o + 1u] = uint(p);
   out_data[o + 2u] = uint(q);
   out_data[o + 3u] = r + uint(p) * 10u + uint(q) * 100u;
}
