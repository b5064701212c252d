#version 450
// std140 uniform block: vec3 + float packing, float arrays (16-byte stride), mat4, nested struct.
layout(local_size_x = 32) in;
struct Inner { vec2 p; int k; };
layout(std140, set = 0, binding = 1) uniform Params {
   vec3 scale;
   float bias;
   float table[4];
   mat4 m;
   Inner inner[2];
   ivec2 tail;
} u;
layout(set = 0, binding = 0) buffer Out { float o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec3 v = u.scale * float(i) + u.bias;
   o[i * 8u + 0u] = v.x;
   o[i * 8u + 1u] = v.y;
   o[i * 8u + 2u] = v.z;
   o[i * 8u + 3u] = u.table[i % 4u];
   o[i * 8u + 4u] = u.m[i % 4u][(i / 4u) % 4u];
   o[i * 8u + 5u] = u.inner[i & 1u].p.y + float(u.inner[i & 1u].k);
   o[i * 8u + 6u] = float(u.tail.x * u.tail.y);
   o[i * 8u + 7u] = 0.0;
}
