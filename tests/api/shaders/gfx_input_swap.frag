#version 450
// Subpass 0's colour at this pixel with red and blue swapped.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput u_color;
layout(location = 0) out vec4 o_color;
void main()
{
   vec4 c = subpassLoad(u_color);
   o_color = vec4(c.b, c.g, c.r, c.a);
}
