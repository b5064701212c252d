#version 450
// Divergent if/else chains inside a warp.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int r = 0;
   if ((i & 1) == 0) {
      r = i * 3;
      if ((i & 2) != 0)
         r += 1000;
      else
         r -= 7;
   } else if (i % 3 == 0) {
      r = -i;
   } else {
      r = i + 5;
   }
   if (i > 200)
      r *= 2;
   o[i] = r;
}
