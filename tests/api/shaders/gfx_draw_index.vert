#version 460
// As gfx_basic.vert, moved down by half the target per 2 draws: each draw
// of a vkCmdDrawMulti*EXT lands 8 pixels lower than the one before it on a
// 32-pixel target, so the image shows which DrawIndex each draw had.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos.x, pos.y + 0.5 * float(gl_DrawID), pos.z, 1.0);
   v_color = color;
}
