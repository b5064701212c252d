#version 450
// 32-bit integer arithmetic on per-invocation inputs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
layout(set = 0, binding = 1) buffer In { int a[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   int x = inp.a[i], y = inp.a[i + 256u];
   o[i * 8u + 0u] = x + y;
   o[i * 8u + 1u] = x - y;
   o[i * 8u + 2u] = x * y;
   o[i * 8u + 3u] = y != 0 ? x / y : 0;
   o[i * 8u + 4u] = y != 0 ? x % y : 0;
   o[i * 8u + 5u] = (x & y) ^ (x | 7);
   o[i * 8u + 6u] = (x << (y & 31)) + (x >> 3);
   o[i * 8u + 7u] = int(uint(x) >> 5u) + ~y + (-x);
}
