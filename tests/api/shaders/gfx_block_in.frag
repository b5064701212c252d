#version 450
// Reads gfx_block_out.vert's block: red and green interpolated, blue from
// the provoking vertex (test_graphics.c).
layout(location = 0) in Block {
   vec4 smooth_color;
   layout(location = 3) flat vec4 flat_color;
} i;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(i.smooth_color.rg, i.flat_color.b, 1.0);
}
