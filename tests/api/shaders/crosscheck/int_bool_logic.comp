// tolerance: exact
// &&, ||, ^^, ! and bool to uint.
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
   bool p = (a & 1u) != 0u, q = (a & 2u) != 0u, r = (b & 4u) != 0u;
   uint bits = uint(p && q) | uint(p || r) << 1 | uint(p ^^ r) << 2 | uint(!q) << 3 |
               uint(!(p && (q || r))) << 4;
   out_data[o + 0u] = bits;
   out_data[o + 1u] = uint(any(bvec3(p, q, r)));
   out_data[o + 2u] = uint(all(bvec3(p, q, r)));
   out_data[o + 3u] = uint(not(bvec2(p, q)).x);
}
