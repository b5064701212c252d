#version 450
// break out of a switch from inside an if, and a divergent switch on negative values.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int r = 0;
   switch (i % 5 - 2) {
   case -2:
      r = 1;
      if ((i & 1) == 1)
         break;
      r += 10;
      break;
   case -1:
   case 0:
      for (int k = 0; k < i % 4; k++) {
         if (k == 2)
            break;
         r += 100;
      }
      if (i > 30) {
         r += 5;
         break;
      }
      r += 7;
      // fall through
   case 1:
      r += 1000;
      break;
   default:
      r = -i;
   }
   o[i] = r;
}
