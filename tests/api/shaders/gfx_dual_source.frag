#version 450
// Two blend sources for one attachment: Index 0 the interpolated colour,
// Index 1 a constant the blend equation multiplies the destination by.
layout(location = 0, index = 0) out vec4 o_color;
layout(location = 0, index = 1) out vec4 o_factor;
layout(location = 0) in vec4 v_color;
void main()
{
   o_color = v_color;
   o_factor = vec4(0.25, 0.5, 0.75, 1.0);
}
