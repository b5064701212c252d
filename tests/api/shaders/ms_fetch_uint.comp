#version 450
// ms_fetch.comp for integer formats: texelFetch of every sample of a 32x32
// 4x image, invocation i sample i % 4 of pixel ((i / 4) % 32, i / 128);
// invocation 0 also writes textureSize and textureSamples.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform utexture2DMS tex;
layout(std430, set = 0, binding = 1) writeonly buffer Out
{
   ivec4 info;
   uvec4 samples[];
};

void main()
{
   uint i = gl_GlobalInvocationID.x, p = i / 4u;
   samples[i] = texelFetch(tex, ivec2(p % 32u, p / 32u), int(i % 4u));
   if (i == 0u)
      info = ivec4(textureSize(tex), textureSamples(tex), 0);
}
