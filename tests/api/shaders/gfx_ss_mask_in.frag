#version 450
// One channel per sample bit of gl_SampleMaskIn: run once per sample (it
// then holds the shaded sample alone), each channel resolves to 1/4.
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(equal(ivec4(gl_SampleMaskIn[0]), ivec4(1, 2, 4, 8)));
}
