#version 450
// reflect/faceforward, and double-precision matrix products.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) buffer D { dvec2 dout[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec3 I = vec3(1.0, -2.0, float(i)), N = normalize(vec3(0.0, 1.0, 1.0));
   o[i * 2u] = vec4(reflect(I, N), 0.0);
   o[i * 2u + 1u] = vec4(faceforward(N, I, vec3(0.0, 0.0, float(i) - 8.0)), 1.0);
   dmat2 m = dmat2(1.5, double(i), -2.0, 0.25);
   dvec2 v = dvec2(3.0, double(i) * 0.5);
   dout[i] = m * v + dot(v, v) * v;
}
