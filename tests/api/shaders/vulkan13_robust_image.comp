#version 450
// robustImageAccess: reads outside a 4x4 R32_UINT image (storage loads,
// texel fetches past the extent or the levels) give zero, stores outside it
// are dropped; the in-range accesses are the control.
layout(local_size_x = 1) in;
layout(binding = 0, r32ui) uniform uimage2D img;
layout(binding = 1) uniform usampler2D tex;
layout(std430, binding = 2) buffer Out { uvec4 w[]; } o;
void main()
{
   o.w[0] = imageLoad(img, ivec2(4, 0));
   o.w[1] = imageLoad(img, ivec2(-1, 2));
   o.w[2] = imageLoad(img, ivec2(1, 7));
   o.w[3] = imageLoad(img, ivec2(2, 1));
   o.w[4] = texelFetch(tex, ivec2(5, 0), 0);
   o.w[5] = texelFetch(tex, ivec2(0, 0), 3);
   o.w[6] = texelFetch(tex, ivec2(3, 3), 0);
   imageStore(img, ivec2(4, 1), uvec4(0xdeadu));
   imageStore(img, ivec2(-1, 1), uvec4(0xdeadu));
   imageStore(img, ivec2(0, 4), uvec4(0xdeadu));
   imageStore(img, ivec2(1, 1), uvec4(7u));
}
