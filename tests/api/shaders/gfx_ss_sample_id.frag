#version 450
// One channel per sample index: run per sample, each channel resolves to 1/4.
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(equal(ivec4(gl_SampleID), ivec4(0, 1, 2, 3)));
}
