#version 460
// Workgroup-shared memory with a reduction.
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer B { float data[]; } b;
shared float tile[128];
shared vec2 pairs[4][8];
void main() {
   uint i = gl_LocalInvocationID.x;
   tile[i] = b.data[gl_GlobalInvocationID.x];
   pairs[i & 3u][i & 7u] = vec2(tile[i]);
   barrier();
   for (uint s = 64u; s > 0u; s >>= 1u) {
      if (i < s)
         tile[i] += tile[i + s];
      barrier();
   }
   if (i == 0u)
      b.data[gl_WorkGroupID.x] = tile[0] + pairs[1][2].y;
}
