#version 450
// Reads a location (3) no vertex shader of the tests writes: linking fails.
layout(location = 3) in vec4 v_missing;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = v_missing;
}
