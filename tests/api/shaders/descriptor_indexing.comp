#version 450
// Descriptor indexing: a runtime array of sampled images (variable count,
// partially bound), arrays of storage images and of uniform texel buffers,
// all indexed by a per-invocation (non-uniform) value.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint which[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uvec4 result[]; };
layout(set = 0, binding = 2, r32ui) uniform readonly uimage2D images[4];
layout(set = 0, binding = 3) uniform utextureBuffer texels[4];
layout(set = 0, binding = 4) uniform usampler2D textures[];

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint k = which[i];
   uint t = texelFetch(textures[nonuniformEXT(k)], ivec2(i % 4u, 0), 0).r;
   uint b = texelFetch(texels[nonuniformEXT(k % 4u)], int(i % 8u)).r;
   uint m = imageLoad(images[nonuniformEXT(k % 4u)], ivec2(i % 2u, 0)).r;
   result[i] = uvec4(k, t, b, m);
}
