#version 450
#extension GL_EXT_multiview : require
// gfx_basic.vert moved 4 pixels right (of a 32-pixel target) per view index.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos.x + 0.25 * float(gl_ViewIndex), pos.yz, 1.0);
   v_color = color;
}
