#version 450
// Function variables read and written around loops (glslang leaves them as
// OpVariable loads and stores): the copies their promotion to registers
// leaves must go, and a copy whose source is written again before its use,
// or a write that a read of the old value precedes, must stay correct.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
layout(set = 0, binding = 1) buffer In { int a[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   int cx = inp.a[2u * i], cy = inp.a[2u * i + 1u];
   int x = 0, y = 0, n = 0;
   for (; n < 64; n++) {
      int xx = (x * x) >> 12;
      int yy = (y * y) >> 12;
      if (xx + yy > 16384)
         break;
      int xy = (x * y) >> 11;
      x = xx - yy + cx;
      y = xy + cy;
   }
   int a = x;     // a copy of x ...
   x = x * 3 + n; // ... whose source is written before the copy is read
   int b = a + x;
   int t = y * 5;
   int old = y; // the old y is read between t's definition and y = t
   y = t;
   o[i * 4u + 0u] = n;
   o[i * 4u + 1u] = b;
   o[i * 4u + 2u] = y + old;
   o[i * 4u + 3u] = x;
}
