// tolerance: exact
// Hillis-Steele inclusive scan of the workgroup.
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
   sh[l] = a & 0xffffu;
   barrier();
   for (uint s = 1u; s < 64u; s <<= 1) {
      uint v = l >= s ? sh[l - s] : 0u;
      barrier();
      sh[l] += v;
      barrier();
   }
   out_data[o + 0u] = sh[l];
   out_data[o + 1u] = sh[63];
   out_data[o + 2u] = l == 0u ? 0u : sh[l - 1u];
   out_data[o + 3u] = 0u;
}
