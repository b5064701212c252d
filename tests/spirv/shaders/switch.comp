#version 460
// switch with fallthrough and default.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { int data[]; } b;
void main() {
   int v = b.data[gl_LocalInvocationID.x];
   int r = 0;
   switch (v) {
   case 0: r = 10; break;
   case 1:
   case 2: r = 20;
   case 3: r += 30; break;
   case -5: r = -1; break;
   default: r = v * 2; break;
   }
   b.data[gl_LocalInvocationID.x] = r;
}
