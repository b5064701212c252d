#version 450
// Float arithmetic and comparisons.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) buffer In { float a[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = inp.a[2u * i], y = inp.a[2u * i + 1u];
   o[i * 8u + 0u] = x + y;
   o[i * 8u + 1u] = x - y;
   o[i * 8u + 2u] = x * y;
   o[i * 8u + 3u] = x / y;
   o[i * 8u + 4u] = -x;
   o[i * 8u + 5u] = (x < y ? 1.0 : 0.0) + (x >= y ? 2.0 : 0.0) + (x == y ? 4.0 : 0.0);
   o[i * 8u + 6u] = mod(x, y);
   o[i * 8u + 7u] = x * 0.5 + y * 0.25;
}
