#version 450
// GLSL.std.450 rounding, abs/sign, min/max/clamp, mix/step/smoothstep, fma.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) readonly buffer In { float a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   float x = a[2u * i], y = a[2u * i + 1u];
   uint b = i * 14u;
   o[b + 0u] = floor(x);
   o[b + 1u] = ceil(x);
   o[b + 2u] = fract(x);
   o[b + 3u] = trunc(x);
   o[b + 4u] = roundEven(x);
   o[b + 5u] = abs(x);
   o[b + 6u] = sign(x);
   o[b + 7u] = min(x, y) + 2.0 * max(x, y);
   o[b + 8u] = clamp(x, -1.0, 1.0);
   o[b + 9u] = mix(x, y, 0.25);
   o[b + 10u] = step(y, x);
   o[b + 11u] = smoothstep(-2.0, 2.0, x);
   o[b + 12u] = fma(x, y, 1.0);
   o[b + 13u] = sqrt(abs(x)) + inversesqrt(abs(y) + 1.0);
}
