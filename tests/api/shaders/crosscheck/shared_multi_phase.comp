// tolerance: exact
// Several barrier phases with divergent work between them.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint sh[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   sh[l] = a;
   barrier();
   uint acc = 0u;
   for (uint k = 0u; k < (l & 7u); k++)
      acc += sh[(l + k) & 63u];
   barrier();
   sh[l] = acc;
   barrier();
   if ((l & 1u) == 0u)
      acc ^= sh[l + 1u];
   out_data[o + 0u] = acc;
   out_data[o + 1u] = sh[63u - l];
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = l;
}
