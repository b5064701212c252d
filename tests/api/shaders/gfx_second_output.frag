#version 450
// The interpolated colour to colour attachment 1 only: attachment 0 may be
// absent (a VK_NULL_HANDLE view in dynamic rendering).
layout(location = 0) in vec4 v_color;
layout(location = 1) out vec4 o_color1;
void main()
{
   o_color1 = v_color;
}
