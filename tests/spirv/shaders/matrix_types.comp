#version 460
// Square and non-square matrices, matrix * vector, transpose, inverse.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer M {
   mat2 m2; mat3 m3; mat4 m4; mat2x3 m23; mat3x4 m34; mat4x2 m42; vec4 result;
} mats;
void main() {
   vec4 v = mats.m4 * vec4(1.0);
   vec3 w = mats.m3 * v.xyz + mats.m23 * vec2(2.0);
   vec2 z = mats.m2 * w.xy + mats.m42 * v;
   mat4 t = transpose(mats.m4) * inverse(mats.m4);
   mats.result = t * v + vec4(z, (mats.m34 * w).xy) + vec4(determinant(mats.m3));
}
