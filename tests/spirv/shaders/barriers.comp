#version 460
// Execution and memory barriers of every flavour.
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent buffer B { uint data[]; } b;
shared uint s[64];
void main() {
   s[gl_LocalInvocationIndex] = b.data[gl_LocalInvocationIndex];
   memoryBarrierShared();
   barrier();
   b.data[gl_LocalInvocationIndex] = s[63u - gl_LocalInvocationIndex];
   memoryBarrierBuffer();
   groupMemoryBarrier();
   memoryBarrier();
   barrier();
}
