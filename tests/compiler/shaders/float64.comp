#version 450
// Double-precision arithmetic and conversions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { double o[]; };
layout(set = 0, binding = 1) readonly buffer In { double a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   double x = a[2u * i], y = a[2u * i + 1u];
   o[i * 6u + 0u] = x + y;
   o[i * 6u + 1u] = x * y - x;
   o[i * 6u + 2u] = x / y;
   o[i * 6u + 3u] = -x;
   o[i * 6u + 4u] = double(float(x)) + double(int(y));
   o[i * 6u + 5u] = x < y ? sqrt(abs(x)) : floor(y);
}
