#version 450
// shaderStorageBufferArrayDynamicIndexing: an array of storage buffers
// indexed by a push constant and by a loop counter (dynamically uniform).
layout(local_size_x = 64) in;
layout(push_constant) uniform PushConstants {
   uint target;
} pc;
layout(set = 0, binding = 0) buffer Words {
   uint v[];
} bufs[4];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint sum = 0u;
   for (uint k = 0u; k < 4u; k++)
      sum += bufs[k].v[i] * (k + 1u);
   bufs[pc.target].v[i] = sum;
}
