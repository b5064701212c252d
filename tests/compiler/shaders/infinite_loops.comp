#version 450
// while(true) and for(;;) loops left only through break, with continue.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x, n = i, steps = 0u;
   while (true) {
      if (n <= 1u)
         break;
      n = (n & 1u) == 0u ? n / 2u : n + 1u;
      steps++;
   }
   uint k = 0u, acc = 0u;
   for (;;) {
      k++;
      if (k % 3u == 0u)
         continue;
      acc += k;
      if (k > i % 20u)
         break;
   }
   o[i] = steps * 1000u + acc;
}
