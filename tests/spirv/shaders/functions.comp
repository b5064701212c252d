#version 460
// Function calls with in, out and inout parameters and recursion-free call chains.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float data[]; } b;
float square(float x) { return x * x; }
void split(float x, out float hi, out float lo) { hi = floor(x); lo = x - hi; }
void accumulate(inout float acc, float x) { acc += square(x); }
void main() {
   float hi, lo, acc = 0.0;
   split(b.data[gl_LocalInvocationID.x], hi, lo);
   accumulate(acc, hi);
   accumulate(acc, lo);
   b.data[gl_LocalInvocationID.x] = acc;
}
