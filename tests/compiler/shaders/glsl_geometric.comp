#version 450
// length, distance, dot, cross, normalize.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) readonly buffer In { vec4 a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec3 p = a[2u * i].xyz, q = a[2u * i + 1u].xyz;
   o[i * 3u] = vec4(length(p), distance(p, q), dot(p, q), 0.0);
   o[i * 3u + 1u] = vec4(cross(p, q), 0.0);
   o[i * 3u + 2u] = vec4(normalize(p), 1.0);
}
