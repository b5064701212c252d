#version 450
// textureCompressionBC: texelFetch of a BC1 block (a 4x4 image) whose
// texels use only the two endpoint colours, so the results are exact.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D bc;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };

void main()
{
   uint i = gl_GlobalInvocationID.x;
   texels[i] = texelFetch(bc, ivec2(i % 4u, (i / 4u) % 4u), 0);
}
