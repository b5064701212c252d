#version 450
// robustImageAccess2 and robustBufferAccess2 on texel buffers: reads
// outside an image or a texel buffer view give zero, with alpha one when
// the format has no alpha (R32_UINT) and zero when it has (R8G8B8A8_UINT);
// stores outside are dropped. The in-range reads are the control.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) uniform usampler2D tex;
layout(set = 0, binding = 2) uniform utextureBuffer utb;
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer stb;
layout(set = 0, binding = 4) uniform utextureBuffer utb_rgba;
layout(std430, set = 0, binding = 5) buffer Out {
   uvec4 w[];
} o;
void main()
{
   o.w[0] = imageLoad(img, ivec2(4, 0));
   o.w[1] = texelFetch(tex, ivec2(0, 9), 0);
   o.w[2] = texelFetch(utb, 16);
   o.w[3] = imageLoad(stb, 20);
   o.w[4] = texelFetch(utb_rgba, 16);
   o.w[5] = imageLoad(img, ivec2(1, 1));
   o.w[6] = texelFetch(utb, 3);
   o.w[7] = texelFetch(utb_rgba, 2);
   imageStore(stb, 17, uvec4(0xdeadu));
   imageStore(img, ivec2(0, 4), uvec4(0xdeadu));
}
