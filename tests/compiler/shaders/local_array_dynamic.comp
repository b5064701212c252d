#version 450
// Function-storage arrays indexed dynamically (local memory).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint a[16];
   for (uint k = 0u; k < 16u; k++)
      a[k] = k * k + i;
   // A few dynamic swaps.
   for (uint k = 0u; k < 8u; k++) {
      uint x = (i + k * 3u) % 16u, y = (i * 7u + k) % 16u;
      uint t = a[x];
      a[x] = a[y];
      a[y] = t;
   }
   uint s = 0u;
   for (uint k = 0u; k < 16u; k++)
      s += a[k] * (k + 1u);
   o[i] = s;
}
