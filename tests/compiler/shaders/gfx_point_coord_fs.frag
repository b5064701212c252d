#version 450
// gl_PointCoord next to one varying (location 0) and without any.
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   color = vec4(gl_PointCoord * texcoord, 0.0, 1.0);
}
