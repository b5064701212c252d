#version 450
// A vkcube-like vertex shader: model-view-projection from a uniform buffer,
// position and texture coordinate attributes.
layout(std140, set = 0, binding = 0) uniform Transform {
   mat4 mvp;
} ubo;
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 texcoord;
void main()
{
   texcoord = uv;
   gl_Position = ubo.mvp * position;
}
