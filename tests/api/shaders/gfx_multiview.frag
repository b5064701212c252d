#version 450
#extension GL_EXT_multiview : require
// Red from the vertex colour, green from the view index (view 2: 1.0).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(v_color.r, 0.5 * float(gl_ViewIndex), 0.0, 1.0);
}
