#version 450
// Uniform buffers in std430 layout (uniformBufferStandardLayout): an array
// of uints with a 4-byte stride (std140 would make it 16) and a uvec2
// after it, at the same offsets as in the std430 storage block. Every word
// is copied, plus one.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) uniform In {
   uint x[8];  // 0, stride 4
   uvec2 y;    // 32
   uvec3 z;    // 48
   uint t;     // 60
} src;
layout(std430, set = 0, binding = 1) buffer Out {
   uint x[8];
   uvec2 y;
   uvec3 z;
   uint t;
} dst;
void main()
{
   for (int k = 0; k < 8; k++)
      dst.x[k] = src.x[k] + 1u;
   dst.y = src.y + 1u;
   dst.z = src.z + 1u;
   dst.t = src.t + 1u;
}
