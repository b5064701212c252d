#version 450
// Lock-free maximum with an atomicCompSwap retry loop on shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint a[]; };
shared uint best;
void main() {
   if (gl_LocalInvocationIndex == 0u)
      best = 0u;
   barrier();
   uint mine = a[gl_GlobalInvocationID.x];
   uint seen = best;
   while (mine > seen) {
      uint prev = atomicCompSwap(best, seen, mine);
      if (prev == seen)
         break;
      seen = prev;
   }
   barrier();
   if (gl_LocalInvocationIndex == 0u)
      o[gl_WorkGroupID.x] = best;
}
