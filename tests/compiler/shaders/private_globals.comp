#version 450
// Private (module-scope) variables with initializers, updated by functions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
uint counter = 5u;
uint history[4] = uint[4](1u, 2u, 3u, 4u);
void bump(uint by) {
   counter += by;
   history[counter % 4u] = counter;
}
void main() {
   uint i = gl_GlobalInvocationID.x;
   for (uint k = 0u; k < i % 5u; k++)
      bump(k + i);
   o[i] = counter * 1000u + history[0] + history[1] * 10u + history[2] * 100u + history[3];
}
