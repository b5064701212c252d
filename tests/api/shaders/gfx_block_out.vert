#version 450
// gfx_basic.vert with its outputs in an interface block: the colour at
// location 0 (smooth), again at location 3 (flat), a member with its own
// Location and qualifier, and a nested struct at locations 4 and 5
// (test_graphics.c).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
struct Inner {
   float x;
   vec2 y;
};
layout(location = 0) out Block {
   vec4 smooth_color;
   layout(location = 3) flat vec4 flat_color;
   layout(location = 4) Inner inner;
} o;
void main()
{
   gl_Position = vec4(pos, 1.0);
   o.smooth_color = color;
   o.flat_color = color;
   o.inner.x = color.b;
   o.inner.y = color.gr;
}
