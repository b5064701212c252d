#version 460
// An array sized by a specialization constant and a composite spec constant.
layout(local_size_x = 32) in;
layout(constant_id = 7) const int N = 6;
layout(constant_id = 8) const float W = 0.5;
layout(constant_id = 9) const int BIAS = 3;
const ivec2 WEIGHTS = ivec2(N, N * 2 + BIAS); // spec composite of spec ops
shared float scratch[N];
layout(std430, binding = 0) buffer B { float data[]; } b;
void main() {
   if (gl_LocalInvocationIndex < uint(N))
      scratch[gl_LocalInvocationIndex] = b.data[gl_LocalInvocationIndex] * float(WEIGHTS.y) * W;
   barrier();
   b.data[gl_LocalInvocationIndex] = scratch[gl_LocalInvocationIndex % uint(N)];
}
