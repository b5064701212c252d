#version 450
// Storage images: every invocation adds its index to one texel of an
// R32_UINT image with imageAtomicAdd (all 256 to the same 4 texels), copies
// texel (x, y) of an rgba8 image to a second one with imageLoad/imageStore
// (inverting it), and writes imageSize into a buffer.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counters;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 3) writeonly buffer Sizes { ivec2 sizes[]; };

void main()
{
   ivec2 id = ivec2(gl_GlobalInvocationID.xy);
   uint index = gl_LocalInvocationIndex;
   imageAtomicAdd(counters, ivec2(index & 1u, (index >> 1) & 1u), index);
   ivec2 size = imageSize(src);
   if (id.x < size.x && id.y < size.y)
      imageStore(dst, id, vec4(1.0) - imageLoad(src, id));
   if (index == 0u) {
      sizes[0] = imageSize(counters);
      sizes[1] = size;
   }
}
