#version 450
// An animated pattern written straight into the swapchain image through a
// storage view: moving colour waves and a bright band that sweeps across.
// Declared without a format (shaderStorageImageWriteWithoutFormat), so it
// suits B8G8R8A8 and R8G8B8A8 swapchains alike.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly uniform image2D target;
layout(push_constant) uniform PushConstants {
   float time; // seconds of animation
   uint frame;
} pc;
void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   ivec2 size = imageSize(target);
   if (any(greaterThanEqual(p, size)))
      return;
   vec2 uv = vec2(p) / vec2(size);
   float t = pc.time;
   vec3 c = 0.5 + 0.5 * vec3(sin(uv.x * 12.0 + t), sin(uv.y * 9.0 - t * 1.3),
                             sin((uv.x + uv.y) * 7.0 + t * 0.7));
   float band = fract(t * 0.25);
   if (abs(uv.x - band) < 0.01)
      c = vec3(1.0);
   imageStore(target, p, vec4(c, 1.0));
}
