#version 450
// Reads location 5, which gfx_cube_vs does not write.
layout(location = 5) in vec4 missing;
layout(location = 0) out vec4 color;
void main()
{
   color = missing;
}
