#version 450
// Scalar block layout (scalarBlockLayout): members at their component
// alignment, a uvec3 straddling a 16-byte boundary and an array of uvec3 with
// a 12-byte stride, in a uniform and a storage block. Every word is copied
// from the uniform block to the same offset of the storage block, plus one.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
layout(scalar, set = 0, binding = 0) uniform In {
   uint a[3];  // 0, 4, 8
   uvec3 v;    // 12 (straddles 16)
   uvec3 w[3]; // 24, stride 12
   uint b;     // 60
} src;
layout(scalar, set = 0, binding = 1) buffer Out {
   uint a[3];
   uvec3 v;
   uvec3 w[3];
   uint b;
} dst;
void main()
{
   for (int k = 0; k < 3; k++)
      dst.a[k] = src.a[k] + 1u;
   dst.v = src.v + 1u;
   for (int k = 0; k < 3; k++)
      dst.w[k] = src.w[k] + 1u;
   dst.b = src.b + 1u;
}
