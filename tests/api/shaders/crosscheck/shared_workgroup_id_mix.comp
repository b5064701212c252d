// tolerance: exact
// Shared memory is per workgroup: results depend on the workgroup id.
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
   if (l == 0u)
      sh[0] = gl_WorkGroupID.x * 1000u;
   barrier();
   uint base = sh[0];
   barrier();
   sh[l] = base + l;
   barrier();
   out_data[o + 0u] = sh[(l * 5u) & 63u];
   out_data[o + 1u] = base;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 0u;
}
