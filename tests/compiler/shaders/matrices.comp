#version 450
// Matrix products, transpose, outer product.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) buffer In { mat4 m[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   mat4 a = inp.m[i], b = inp.m[i + 16u];
   vec4 v = a[1];
   o[i * 12u + 0u] = a * v;
   o[i * 12u + 1u] = v * a;
   mat4 c = a * b;
   for (int k = 0; k < 4; k++)
      o[i * 12u + 2u + uint(k)] = c[k];
   mat4 t = transpose(a);
   o[i * 12u + 6u] = t[2];
   mat4 op = outerProduct(v, b[0]);
   o[i * 12u + 7u] = op[3];
   mat3 m3 = mat3(a) * 2.0;
   o[i * 12u + 8u] = vec4(m3[0], m3[2].z);
   o[i * 12u + 9u] = vec4(0.0);
   o[i * 12u + 10u] = vec4(0.0);
   o[i * 12u + 11u] = vec4(0.0);
}
