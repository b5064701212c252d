#version 450
// gfx_input_attachment.frag for 4x attachments (subpassInputMS): colour from
// sample 3, depth from sample 1; writes (colour.g, colour.r, depth, 1).
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS u_color;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInputMS u_depth;
layout(location = 0) out vec4 o_color;
void main()
{
   vec4 c = subpassLoad(u_color, 3);
   float d = subpassLoad(u_depth, 1).r;
   o_color = vec4(c.g, c.r, d, 1.0);
}
