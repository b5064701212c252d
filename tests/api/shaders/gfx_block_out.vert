#version 450
// gfx_basic.vert with its outputs in an interface block: the colour at
// location 0 (smooth) and again at location 3 (flat), a member with its
// own Location and qualifier (test_graphics.c).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out Block {
   vec4 smooth_color;
   layout(location = 3) flat vec4 flat_color;
} o;
void main()
{
   gl_Position = vec4(pos, 1.0);
   o.smooth_color = color;
   o.flat_color = color;
}
