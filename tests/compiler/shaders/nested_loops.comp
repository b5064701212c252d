#version 450
// Nested loops with per-lane trip counts, break and continue.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint sum = 0u;
   for (uint a = 0u; a < (i % 7u) + 1u; a++) {
      if (a == 5u)
         continue;
      for (uint b = 0u; b < 10u; b++) {
         if (b > a + (i & 3u))
            break;
         if (((a + b) & 1u) == 1u)
            continue;
         sum += a * 10u + b;
      }
      if (sum > 200u + i)
         break;
   }
   o[i] = sum;
}
