#version 450
// Tree reduction in shared memory across 8 warps, one result per workgroup.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint a[]; };
shared uint s[256];
void main() {
   uint l = gl_LocalInvocationIndex;
   s[l] = a[gl_GlobalInvocationID.x];
   barrier();
   for (uint stride = 128u; stride > 0u; stride >>= 1u) {
      if (l < stride)
         s[l] += s[l + stride];
      barrier();
   }
   if (l == 0u)
      o[gl_WorkGroupID.x] = s[0];
}
