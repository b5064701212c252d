#version 450
// With robustBufferAccess, accesses beyond the descriptor's range read 0 and drop writes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a[]; };
layout(set = 0, binding = 2) buffer Vec { uvec4 v[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   o[i] = a[i] + 1u;
   o[i + 128u] = v[i].y;
   atomicAdd(a[i + 16u], 1u);
   v[i] = uvec4(i);
}
