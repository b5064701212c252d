#version 450
// A `sample` input: the shader runs per sample by itself.
layout(location = 0) sample in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   color = vec4(texcoord, gl_SamplePosition);
}
