#version 450
// shaderStorageImageWriteWithoutFormat: imageStore to a storage image whose
// format the shader does not declare (a 16x16 B8G8R8A8_UNORM image, the
// swapchain format samples write directly). Values are exact 8-bit codes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform writeonly image2D img;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint x = i % 16u, y = i / 16u;
   imageStore(img, ivec2(x, y), vec4(float(x * 17u), float(y * 17u), 51.0, 255.0) / 255.0);
}
