#version 450
// Contended atomicAdd on one buffer word; every invocation records its ticket.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; uint tickets[]; };
void main() {
   uint t = atomicAdd(count, 1u);
   tickets[t] = gl_GlobalInvocationID.x + 1u;
}
