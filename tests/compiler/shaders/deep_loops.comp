#version 450
// 40 nested loops (each with a short-circuit condition, a selection in its
// header): deeper than the compiler's old limit of 32 constructs, and deeper
// than the 64 on-chip entries of the reconvergence stack (two per loop).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
#define LOOP for (int i = 0; i < 2 && count < bound; i++, count++, a++)
void main() {
   int id = int(gl_GlobalInvocationID.x);
   int bound = id % 50 + 30, count = 0, a = 0;
   LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP {
   LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP { LOOP {
      if ((count & 7) == (id & 7))
         a += 100;
   } } } } } } } } } } } } } } } } } } } }
   } } } } } } } } } } } } } } } } } } } }
   o[id] = a * 1000 + count;
}
