#version 460
// Nested loops and selections, early return and a loop with a complex continue block.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int data[64]; int result; } b;
void main() {
   int acc = 0;
   if (b.data[0] == 0)
      return;
   for (int i = 0; i < 8; i++) {
      for (int j = i; j < 8; j += (j & 1) + 1) {
         if ((i ^ j) == 3) {
            acc += b.data[i * 8 + j];
            if (acc > 100)
               break;
         } else if (j == 5) {
            continue;
         } else {
            acc -= 1;
         }
      }
   }
   b.result = acc;
}
