#version 450
// Positions come in framebuffer pixels; the viewport is the whole target.
layout(push_constant) uniform Target {
   vec2 size; // width, height in pixels
} target;
layout(location = 0) in vec2 pixel;
layout(location = 0) flat out vec4 color;

void main()
{
   gl_Position = vec4(pixel / target.size * 2.0 - 1.0, 0.0, 1.0);
   // A colour per triangle, never black (black is the clear colour).
   uint t = uint(gl_VertexIndex) / 3u;
   uint h = (t * 2654435761u) >> 8;
   color = vec4(0.25 + 0.75 * vec3(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u) / 255.0, 1.0);
}
