#version 450
// Integer GLSL.std.450: abs, sign, min, max, clamp.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { int o[]; };
layout(set = 0, binding = 1) readonly buffer In { int a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   int x = a[2u * i], y = a[2u * i + 1u];
   o[i * 5u] = abs(x);
   o[i * 5u + 1u] = sign(x);
   o[i * 5u + 2u] = min(x, y);
   o[i * 5u + 3u] = max(x, y);
   o[i * 5u + 4u] = clamp(x, -50, 50);
}
