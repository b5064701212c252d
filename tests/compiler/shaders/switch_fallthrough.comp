#version 450
// switch with fallthrough, default and break, inside a loop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int r = 0;
   for (int k = 0; k < 3; k++) {
      switch ((i + k) % 6) {
      case 0:
         r += 1;
      case 1:
         r += 10;
         break;
      case 2:
      case 3:
         r += 100;
         break;
      case 5:
         r -= 1000;
         continue;
      default:
         r += 7;
      }
      r *= 2;
   }
   o[i] = r;
}
