#version 450
// atan, atan2, asin, acos and the hyperbolic functions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) readonly buffer In { float a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = a[2u * i], y = a[2u * i + 1u], u = clamp(x * 0.3, -1.0, 1.0);
   uint b = i * 10u;
   o[b + 0u] = atan(x);
   o[b + 1u] = atan(y, x);
   o[b + 2u] = asin(u);
   o[b + 3u] = acos(u);
   o[b + 4u] = sinh(u * 2.0);
   o[b + 5u] = cosh(u * 2.0);
   o[b + 6u] = tanh(x * 4.0);
   o[b + 7u] = asinh(x);
   o[b + 8u] = acosh(abs(x) + 1.0);
   o[b + 9u] = atanh(u * 0.9);
}
