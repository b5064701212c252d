#version 450
// The primitive's viewport index as red (in 1/255 steps): what the vertex
// program wrote, read back in the fragment stage (test_graphics_viewports.c).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(float(gl_ViewportIndex) / 255.0, 0.0, 0.0, v_color.a);
}
