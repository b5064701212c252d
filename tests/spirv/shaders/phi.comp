#version 460
// Short-circuit operators and a loop-carried value: glslang emits OpPhi here.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int data[]; } b;
void main() {
   int v = b.data[gl_LocalInvocationID.x];
   bool ok = v > 0 && b.data[v] != 3 || v == -7;
   int s = 0;
   for (int i = 0; i < 4; i++)
      s += i;
   b.data[gl_LocalInvocationID.x] = ok ? s : -s;
}
