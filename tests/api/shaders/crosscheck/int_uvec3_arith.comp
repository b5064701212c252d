// tolerance: exact
// uvec3 arithmetic, component-wise.
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
   uvec3 x = uvec3(a, b, c), y = uvec3(d, a ^ b, c + 1u);
   uvec3 r = x * y + (x ^ y) - (x >> uvec3(1u, 2u, 3u));
   uvec3 q = x / (y | 1u);
   out_data[o + 0u] = r.x;
   out_data[o + 1u] = r.y;
   out_data[o + 2u] = r.z;
   out_data[o + 3u] = q.x + q.y + q.z;
}
