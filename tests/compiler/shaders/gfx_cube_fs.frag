#version 450
// A vkcube-like fragment shader: implicit-LOD sampling.
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   color = texture(tex, texcoord);
}
