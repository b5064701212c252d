#version 450
// Early return from the shader at different depths.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   o[i] = 1u;
   if (i % 5u == 0u)
      return;
   for (uint k = 0u; k < 8u; k++) {
      if (k == i % 8u && (i & 1u) == 1u)
         return;
      o[i] += k;
   }
   o[i] += 100u;
}
