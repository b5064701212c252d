#version 450
// Hillis-Steele inclusive prefix sum in shared memory (double-buffered).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint a[]; };
shared uint buf[2][128];
void main() {
   uint l = gl_LocalInvocationID.x;
   uint src = 0u;
   buf[0][l] = a[gl_GlobalInvocationID.x];
   barrier();
   for (uint off = 1u; off < 128u; off <<= 1u) {
      uint v = buf[src][l];
      if (l >= off)
         v += buf[src][l - off];
      buf[1u - src][l] = v;
      src = 1u - src;
      memoryBarrierShared();
      barrier();
   }
   o[gl_GlobalInvocationID.x] = buf[src][l];
}
