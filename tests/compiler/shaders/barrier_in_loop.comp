#version 450
// Barriers inside a uniform loop: neighbours exchange values through shared memory.
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint cur[96];
void main() {
   uint l = gl_LocalInvocationID.x;
   uint v = l * 7u + gl_WorkGroupID.x;
   for (int step = 0; step < 5; step++) {
      cur[l] = v;
      barrier();
      v = v + cur[(l + 1u) % 96u] * 3u;
      barrier();
   }
   o[gl_GlobalInvocationID.x] = v;
}
