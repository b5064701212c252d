#version 450
// Several descriptor sets, a dynamic storage buffer and a descriptor array.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 1, binding = 2) readonly buffer A { uint a[]; };
layout(set = 2, binding = 0) readonly buffer Dyn { uint d[]; };
layout(set = 2, binding = 1) readonly buffer Arr { uint v[]; } arr[2];
void main() {
   uint i = gl_GlobalInvocationID.x;
   o[i] = a[i] + d[i] * 10u + arr[i & 1u].v[i] * 100u + arr[1].v[0] * 1000u;
}
