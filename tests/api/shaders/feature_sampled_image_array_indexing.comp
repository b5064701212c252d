#version 450
// shaderSampledImageArrayDynamicIndexing: texelFetch from one of four
// combined image samplers picked by a push constant (4x4 R32_UINT images).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform usampler2D textures[4];
layout(set = 0, binding = 1) writeonly buffer Out { uint values[]; };
layout(push_constant) uniform Params { uint index; } p;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   values[i] = texelFetch(textures[p.index], ivec2(i % 4u, (i / 4u) % 4u), 0).r;
}
