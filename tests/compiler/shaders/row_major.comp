#version 450
// row_major and column_major matrices in a storage buffer, whole and by column.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 1) buffer Mats {
   layout(row_major) mat3x4 r;   // 3 columns of vec4, stored by rows
   layout(column_major) mat4 c;
} m;
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec4 col = m.r[i % 3u];
   o[i * 4u + 0u] = col;
   o[i * 4u + 1u] = m.c[i % 4u];
   o[i * 4u + 2u] = m.r * vec3(1.0, 2.0, float(i));
   o[i * 4u + 3u] = vec4(m.r[2][i % 4u], m.c[3][i % 4u], 0.0, 1.0);
}
