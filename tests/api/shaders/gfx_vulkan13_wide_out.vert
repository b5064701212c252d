#version 450
// maintenance4's interface matching: a vec4 output that the fragment shader
// (gfx_vulkan13_narrow_in.frag) reads as a vec2; z and w are dropped.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_wide;
void main()
{
   gl_Position = vec4(pos, 1.0);
   v_wide = vec4(color.r, color.g, 0.25, 0.75);
}
