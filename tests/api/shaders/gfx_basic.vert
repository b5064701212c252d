#version 450
// Position (window depth in z) and colour per vertex; points are 1 pixel.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos, 1.0);
   gl_PointSize = 1.0;
   v_color = color;
}
