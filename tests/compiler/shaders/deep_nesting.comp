#version 450
// Loop in switch in loop in if, with continue and break at several levels.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int r = 0;
   if (i % 7 != 3) {
      for (int a = 0; a < 4; a++) {
         switch ((i + a) & 3) {
         case 0:
            for (int b = 0; b < a + 2; b++) {
               if (b == i % 3)
                  continue;
               r += b;
            }
            break;
         case 1:
            r += 10;
            if (r > 40)
               break;
            r += 1;
            break;
         default:
            if ((i & 8) != 0)
               continue;
            r -= 3;
         }
         r *= 2;
         if (r > 500)
            break;
      }
   } else {
      r = -1;
   }
   o[i] = r;
}
