#version 450
// int/uint/float/bool conversions (float to int truncates).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { float f[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = inp.f[i];
   int si = int(x);
   uint ui = uint(abs(x));
   o[i * 6u + 0u] = uint(si);
   o[i * 6u + 1u] = ui;
   o[i * 6u + 2u] = floatBitsToUint(float(si) * 2.0);
   o[i * 6u + 3u] = floatBitsToUint(float(ui + 3u));
   o[i * 6u + 4u] = uint(x > 1.0) + uint(bool(si)) * 2u;
   o[i * 6u + 5u] = floatBitsToUint(float(i) / 3.0);
}
