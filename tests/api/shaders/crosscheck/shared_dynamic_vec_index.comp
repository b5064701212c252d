// tolerance: exact
// Dynamic component indexing of vectors held in shared memory.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uvec4 sv4[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   sv4[l] = uvec4(a, b, c, d);
   barrier();
   uvec4 v = sv4[(l + 3u) & 63u];
   uint x = sv4[l ^ 7u][a & 3u];
   barrier();
   sv4[l][b & 3u] = seed;
   barrier();
   out_data[o + 0u] = v[c & 3u];
   out_data[o + 1u] = x;
   out_data[o + 2u] = sv4[l].x ^ sv4[l].w;
   out_data[o + 3u] = sv4[(l + 1u) & 63u][d & 3u];
}
