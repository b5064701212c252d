#version 450
// std140 mat3 (vec3 columns padded to 16 bytes) and mat2x3 in a uniform block.
layout(local_size_x = 16) in;
layout(std140, set = 0, binding = 1) uniform U { mat3 m; mat2x3 n; vec3 v; };
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec3 x = v * float(i);
   o[i * 2u] = vec4(m * x, 0.0);
   o[i * 2u + 1u] = vec4(n * vec2(1.0, float(i)), 1.0);
}
