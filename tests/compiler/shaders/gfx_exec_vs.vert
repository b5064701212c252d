#version 450
// Executed on the model (test_graphics_exec.c): attributes of three
// formats from two bindings (one per instance), a perspective and a flat
// output.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color; // R8G8B8A8_UNORM
layout(location = 2) in float shift; // per instance
layout(location = 0) out vec4 v_color;
layout(location = 1) flat out uint v_instance;
void main()
{
   v_color = color;
   v_instance = uint(gl_InstanceIndex);
   gl_Position = vec4(pos.x + shift, pos.y, 0.5, 1.0);
}
