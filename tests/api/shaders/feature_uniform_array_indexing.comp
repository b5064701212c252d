#version 450
// shaderUniformBufferArrayDynamicIndexing: an array of uniform buffers
// indexed by a push constant and by a loop counter (dynamically uniform).
layout(local_size_x = 64) in;
layout(push_constant) uniform PushConstants {
   uint pick;
} pc;
layout(set = 0, binding = 0) uniform Table {
   uvec4 v[16];
} tables[3];
layout(set = 0, binding = 1) buffer Out {
   uint v[];
} dst;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint sum = 0u;
   for (uint k = 0u; k < 3u; k++)
      sum += tables[k].v[i % 16u][k] * (k + 1u);
   dst.v[2 * i + 0] = sum;
   dst.v[2 * i + 1] = tables[pc.pick].v[(i * 7u) % 16u].w;
}
