// tolerance: exact
// A 64-entry local array (stays in local memory) with scattered accesses.
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
   uint t[64];
   for (uint k = 0u; k < 64u; k++)
      t[k] = k * a;
   for (uint k = 0u; k < 64u; k++)
      t[(k * 7u + b) & 63u] ^= t[k] + k;
   out_data[o + 0u] = t[c & 63u];
   out_data[o + 1u] = t[(d >> 6) & 63u];
   out_data[o + 2u] = t[0] + t[63];
   out_data[o + 3u] = t[a & 63u] * 3u;
}
