#version 460
// Buffer and shared atomics.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint counter; int minimum; uint bits; uint slots[]; } b;
shared uint local_count;
void main() {
   if (gl_LocalInvocationIndex == 0u)
      local_count = 0u;
   barrier();
   uint mine = atomicAdd(local_count, 1u);
   atomicMin(b.minimum, int(mine) - 5);
   atomicOr(b.bits, 1u << (mine & 31u));
   uint old = atomicExchange(b.slots[mine], gl_LocalInvocationIndex);
   atomicCompSwap(b.counter, old, mine);
}
