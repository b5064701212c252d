#version 450
// Function variables carried across loop iterations (promoted to registers):
// a read before the single store in the body sees the previous iteration.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint prev = 0u, sum = 0u, x = 1u;
   for (uint k = 0u; k < 10u; k++) {
      uint v = k * i + 3u;
      uint w = x * 3u + k;
      if (k > 0u)
         sum += prev * k;
      if ((k & 1u) == 1u)
         sum += x;
      prev = v;
      x = w;
   }
   o[i] = sum;
}
