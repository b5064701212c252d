#version 450
// texelFetch of every sample of a 32x32 4x image (GW x GH of
// graphics_test_util.h): invocation i reads sample i % 4 of pixel
// ((i / 4) % 32, i / 128); invocation 0 also writes textureSize and
// textureSamples. test_graphics_msaa.c checks each sample against the
// coverage it computes.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2DMS tex;
layout(std430, set = 0, binding = 1) writeonly buffer Out
{
   ivec4 info;
   vec4 samples[];
};

void main()
{
   uint i = gl_GlobalInvocationID.x, p = i / 4u;
   samples[i] = texelFetch(tex, ivec2(p % 32u, p / 32u), int(i % 4u));
   if (i == 0u)
      info = ivec4(textureSize(tex), textureSamples(tex), 0);
}
