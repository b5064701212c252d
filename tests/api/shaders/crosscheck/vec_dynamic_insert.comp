// tolerance: exact
// Dynamic component writes.
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
   v[d & 3u] = seed;
   v[(a >> 4) & 3u] += 1u;
   vec3 f = vec3(1.0, 2.0, 3.0);
   f[b % 3u] = 7.5;
   out_data[o + 0u] = v.x + v.y;
   out_data[o + 1u] = v.z ^ v.w;
   out_data[o + 2u] = floatBitsToUint(f.x + f.y * 10.0 + f.z * 100.0);
   out_data[o + 3u] = v[c & 3u];
}
