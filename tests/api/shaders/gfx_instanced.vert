#version 450
// As gfx_basic.vert, moved by a per-instance offset (binding 1, input rate
// INSTANCE) in normalized device coordinates.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 2) in vec2 offset;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos.xy + offset, pos.z, 1.0);
   v_color = color;
}
