#version 450
// The vertex colour as 8-bit integers, for integer colour targets.
layout(location = 0) in vec4 v_color;
layout(location = 0) out uvec4 o_color;
void main()
{
   o_color = uvec4(v_color * 255.0 + 0.5);
}
