#version 450
// Vector arithmetic, swizzles, construct/extract/insert, dynamic indexing.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) buffer In { vec4 v[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec4 a = inp.v[i], b = inp.v[i + 64u];
   vec4 s = a + b * 2.0;
   o[i * 4u + 0u] = s.wzyx;
   vec3 t = a.xyz * b.yzx;
   o[i * 4u + 1u] = vec4(t, a.w - b.w);
   vec4 c = a;
   c.y = b.x;
   c[i & 3u] = 100.0;
   o[i * 4u + 2u] = c;
   o[i * 4u + 3u] = vec4(b[i % 4u], dot(a, b), a.x, float(i));
}
