#version 460
// Scalar int/uint/float/bool arithmetic, comparisons and conversions.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float f[]; } data;
layout(std430, binding = 1) buffer Ints { uint u[4]; int i[]; } ints;
void main() {
   uint idx = gl_GlobalInvocationID.x;
   float x = data.f[idx];
   int a = int(x) * 3 - 7;
   uint b = uint(a) >> 2u;
   bool neg = x < 0.0;
   data.f[idx] = neg ? -x : x * 2.0 + float(b) / 3.0;
   ints.i[idx] = a % 5 + (a & 0xff) ^ int(b | 1u);
}
