#version 450
// Functions (inlined) with early returns, loops, out parameters and recursion-free nesting.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
int collatz_steps(int n) {
   int steps = 0;
   while (n != 1) {
      if (steps > 50)
         return -1;
      n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
      steps++;
   }
   return steps;
}
void split(int v, out int hi, out int lo) {
   hi = v / 10;
   lo = v % 10;
}
int classify(int x) {
   if (x < 10)
      return 1;
   if (x < 20)
      return 2 + collatz_steps(x);
   return 3;
}
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int hi, lo;
   split(collatz_steps(i + 1), hi, lo);
   o[i * 3] = hi;
   o[i * 3 + 1] = lo;
   o[i * 3 + 2] = classify(i);
}
