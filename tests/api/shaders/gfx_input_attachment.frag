#version 450
// Reads subpass 0's colour and depth at this pixel (subpassLoad) and writes
// (colour.g, colour.r, depth, 1): both inputs and their formats show.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput u_color;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput u_depth;
layout(location = 0) out vec4 o_color;
void main()
{
   vec4 c = subpassLoad(u_color);
   float d = subpassLoad(u_depth).r;
   o_color = vec4(c.g, c.r, d, 1.0);
}
