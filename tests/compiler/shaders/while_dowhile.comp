#version 450
// while and do-while loops with divergent exits.
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint x = i, n = 0u;
   while (x != 0u) {
      x &= x - 1u;
      n++;
   }
   uint y = i, m = 0u;
   do {
      y /= 3u;
      m++;
   } while (y > 0u);
   o[i] = n * 100u + m;
}
