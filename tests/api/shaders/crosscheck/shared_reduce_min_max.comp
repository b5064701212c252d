// tolerance: exact
// min and max reductions in shared memory.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint smin[64];
shared int smax[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   smin[l] = a;
   smax[l] = int(b);
   barrier();
   for (uint s = 32u; s > 0u; s >>= 1) {
      if (l < s) {
         smin[l] = min(smin[l], smin[l + s]);
         smax[l] = max(smax[l], smax[l + s]);
      }
      barrier();
   }
   out_data[o + 0u] = smin[0];
   out_data[o + 1u] = uint(smax[0]);
   out_data[o + 2u] = uint(a == smin[0]);
   out_data[o + 3u] = 0u;
}
