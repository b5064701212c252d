// tolerance: exact
// isnan/isinf on vectors with any/all.
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
   vec4 v = uintBitsToFloat(uvec4(a, b, c, d));
   bvec4 n = isnan(v), f = isinf(v);
   out_data[o + 0u] = uint(n.x) | uint(n.y) << 1 | uint(n.z) << 2 | uint(n.w) << 3;
   out_data[o + 1u] = uint(f.x) | uint(f.y) << 1 | uint(f.z) << 2 | uint(f.w) << 3;
   out_data[o + 2u] = uint(any(n)) + uint(all(not(n))) * 2u;
   out_data[o + 3u] = uint(any(f));
}
