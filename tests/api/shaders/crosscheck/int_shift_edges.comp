// tolerance: exact
// Shifts by 0 and 31, of vectors and scalars.
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
   uint s0 = a & 0u, s31 = (a | 31u) & 31u;
   out_data[o + 0u] = (b << s0) ^ (b >> s31);
   out_data[o + 1u] = uint(int(b) >> s31) ^ uint(int(c) >> s0);
   out_data[o + 2u] = (c << s31) | (d >> s0);
   out_data[o + 3u] = uint(1 << s31) + (1u << (a & 31u));
}
