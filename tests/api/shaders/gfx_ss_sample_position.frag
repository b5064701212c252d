#version 450
// The squares of gl_SamplePosition: their resolve (the mean over the four
// standard positions) differs from the pixel centre's 0.25.
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(gl_SamplePosition * gl_SamplePosition, 0.0, 1.0);
}
