#version 450
// isnan/isinf and IEEE min/max on special values.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { float a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = a[i];
   o[i * 3u] = uint(isnan(x)) + 2u * uint(isinf(x)) + 4u * uint(x == x) + 8u * uint(x != x);
   o[i * 3u + 1u] = floatBitsToUint(min(x, 1.0));
   o[i * 3u + 2u] = floatBitsToUint(max(x, -1.0));
}
