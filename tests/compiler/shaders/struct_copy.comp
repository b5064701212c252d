#version 450
// Whole-struct copies between buffer elements, local structs and arrays of structs.
layout(local_size_x = 32) in;
struct S { ivec2 a; float b; int c[3]; };
layout(std430, set = 0, binding = 0) buffer Buf { S src[32]; S dst[32]; };
S twist(S s, int k) {
   S r = s;
   r.a = s.a.yx + k;
   r.c[k % 3] += 100;
   r.b = -s.b;
   return r;
}
void main() {
   uint i = gl_GlobalInvocationID.x;
   S local[2];
   local[0] = src[i];
   local[1] = twist(local[0], int(i));
   dst[i] = local[i & 1u];
}
