#version 450
// shaderStorageImageExtendedFormats: imageStore to an rg16f image (R16G16_
// SFLOAT is in the extended set); the values are exact in half precision.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rg16f) uniform writeonly image2D img;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   imageStore(img, ivec2(i % 16u, i / 16u), vec4(float(i) * 0.25, -float(i + 1u), 0.0, 0.0));
}
