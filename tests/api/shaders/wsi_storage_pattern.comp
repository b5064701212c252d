#version 450
// Writes a pattern straight into a swapchain image through a storage view
// (tests/api/test_wsi_headless.c): red = x, green = y, blue = the push
// constant, each as an 8-bit UNORM value, alpha 1. The image is declared
// without a format (shaderStorageImageWriteWithoutFormat), so the view's
// B8G8R8A8 or R8G8B8A8 format decides the byte order.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly uniform image2D target;
layout(push_constant) uniform PushConstants {
   uint blue;
} pc;
void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   if (any(greaterThanEqual(p, imageSize(target))))
      return;
   imageStore(target, p, vec4(float(p.x & 255) / 255.0, float(p.y & 255) / 255.0,
                              float(pc.blue & 255u) / 255.0, 1.0));
}
