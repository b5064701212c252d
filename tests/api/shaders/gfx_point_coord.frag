#version 450
// gl_PointCoord in red and green, next to a varying (blue from the vertex
// colour), so the point coordinate's slot follows the varyings' slots.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(gl_PointCoord, v_color.b, 1.0);
}
