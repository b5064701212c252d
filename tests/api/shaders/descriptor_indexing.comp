#version 450
// Descriptor indexing: a runtime array of sampled images (variable count,
// partially bound) and arrays of storage images, uniform and storage texel
// buffers, storage and uniform buffers, all indexed by a per-invocation
// (non-uniform) value.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint which[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uvec4 result[]; };
layout(set = 0, binding = 2, r32ui) uniform readonly uimage2D images[4];
layout(set = 0, binding = 3) uniform utextureBuffer texels[4];
layout(set = 0, binding = 4, r32ui) uniform readonly uimageBuffer storage_texels[4];
layout(set = 0, binding = 5) readonly buffer Data { uint v[8]; } datas[4];
layout(set = 0, binding = 6) uniform Consts { uvec4 c[2]; } consts[4];
layout(set = 0, binding = 7) uniform usampler2D textures[];

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint k = which[i];
   uint j = k % 4u;
   uint t = texelFetch(textures[nonuniformEXT(k)], ivec2(i % 4u, 0), 0).r;
   uint b = texelFetch(texels[nonuniformEXT(j)], int(i % 8u)).r;
   uint m = imageLoad(images[nonuniformEXT(j)], ivec2(i % 2u, 0)).r;
   uint st = imageLoad(storage_texels[nonuniformEXT(j)], int(i % 8u)).r;
   uint d = datas[nonuniformEXT(j)].v[i % 8u];
   uint u = consts[nonuniformEXT(j)].c[(i / 4u) % 2u][i % 4u];
   result[2u * i] = uvec4(k, t, b, m);
   result[2u * i + 1u] = uvec4(st, d, u, 0u);
}
