#version 450
// Colour from a uniform buffer (set 0, binding 0) scaled by push constants:
// descriptor sets and push constants reach fragment programs.
layout(set = 0, binding = 0) uniform U { vec4 color; } u;
layout(push_constant) uniform P { vec4 scale; } pc;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = u.color * pc.scale;
}
