#version 450
// texelFetch of every texel of a 16x16 texture, row by row: invocation i
// reads (i % 16, i / 16). test_texture_crosscheck.c runs it on vkppu and
// lavapipe and compares.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   texels[i] = texelFetch(tex, ivec2(i % 16u, i / 16u), 0);
}
