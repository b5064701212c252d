#version 450
// MIRROR_CLAMP_TO_EDGE (samplerMirrorClampToEdge): invocation i samples the
// 4x1 image with nearest filtering at the centre of texel i - 6, i.e. from
// six texels left of the image to six right of it.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { float o[16]; } dst;
void main()
{
   int i = int(gl_LocalInvocationIndex);
   float u = (float(i - 6) + 0.5) / 4.0;
   dst.o[i] = textureLod(tex, vec2(u, 0.5), 0.0).r;
}
