#version 450
// Texel buffers: texelFetch of a samplerBuffer, imageLoad / imageStore of an
// imageBuffer, imageAtomicAdd on a uimageBuffer, and their sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer uniform_texels;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer counters;
layout(set = 0, binding = 2, rgba32f) uniform imageBuffer storage_texels;
layout(set = 0, binding = 3) buffer Out { vec4 fetched[64]; ivec4 sizes; vec4 outside; };

void main() {
   int i = int(gl_GlobalInvocationID.x);
   fetched[i] = texelFetch(uniform_texels, i);
   imageStore(storage_texels, i, imageLoad(storage_texels, i) + vec4(float(i)));
   imageAtomicAdd(counters, i % 4, 1u);
   if (i == 0) {
      sizes = ivec4(textureSize(uniform_texels), imageSize(counters), imageSize(storage_texels), 0);
      outside = texelFetch(uniform_texels, 1000) + imageLoad(storage_texels, 64);
   }
}
