#version 450
// Reads gfx_block_out.vert's block: red from the smooth member, green from
// the nested struct's second member, blue from the provoking vertex
// (test_graphics.c).
struct Inner {
   float x;
   vec2 y;
};
layout(location = 0) in Block {
   vec4 smooth_color;
   layout(location = 3) flat vec4 flat_color;
   layout(location = 4) Inner inner;
} i;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(i.smooth_color.r, i.inner.y.x, i.flat_color.b, 1.0);
}
