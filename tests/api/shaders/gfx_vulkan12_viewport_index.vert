#version 450
// gfx_basic.vert with gl_ViewportIndex = the colour's alpha (a whole
// number) and alpha 1 out (test_graphics_viewports.c); SPIR-V 1.5, whose
// ShaderViewportIndex capability is shaderOutputViewportIndex.
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos, 1.0);
   gl_ViewportIndex = int(color.a);
   v_color = vec4(color.rgb, 1.0);
}
