#version 450
// Histogram with shared-memory atomics, then merged into the buffer with buffer atomics.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Hist { uint h[16]; };
layout(set = 0, binding = 1) readonly buffer In { uint a[]; };
shared uint local_h[16];
void main() {
   uint l = gl_LocalInvocationIndex;
   if (l < 16u)
      local_h[l] = 0u;
   barrier();
   atomicAdd(local_h[a[gl_GlobalInvocationID.x] % 16u], 1u);
   barrier();
   if (l < 16u)
      atomicAdd(h[l], local_h[l]);
}
