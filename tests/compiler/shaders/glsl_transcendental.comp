#version 450
// exp/exp2/log/log2/pow/sin/cos/tan.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) readonly buffer In { float a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = a[i];
   uint b = i * 8u;
   o[b + 0u] = exp2(x);
   o[b + 1u] = exp(x);
   o[b + 2u] = log2(abs(x) + 0.5);
   o[b + 3u] = log(abs(x) + 0.5);
   o[b + 4u] = pow(abs(x) + 0.5, 1.5);
   o[b + 5u] = sin(x);
   o[b + 6u] = cos(x);
   o[b + 7u] = tan(x * 0.25);
}
