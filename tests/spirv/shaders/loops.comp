#version 460
// for/while/do-while loops with break and continue.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int n; int data[]; } b;
void main() {
   int acc = 0;
   for (int i = 0; i < b.n; i++) {
      if (b.data[i] < 0)
         continue;
      if (b.data[i] > 1000)
         break;
      acc += b.data[i];
   }
   int j = 0;
   while (j < 10) { acc ^= j; j += 3; }
   do { acc -= 1; } while (acc > 100);
   b.data[gl_LocalInvocationID.x] = acc;
}
