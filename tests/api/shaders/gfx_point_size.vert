#version 450
// gl_PointSize from the position's z (times 10); depth 0.5.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos.xy, 0.5, 1.0);
   gl_PointSize = pos.z * 10.0;
   v_color = color;
}
