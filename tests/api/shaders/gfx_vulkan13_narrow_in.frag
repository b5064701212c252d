#version 450
// Reads two components of gfx_vulkan13_wide_out.vert's vec4 output.
layout(location = 0) in vec2 v_wide;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(v_wide, 1.0, 1.0);
}
