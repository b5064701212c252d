#version 450
// Sample built-ins and a sample mask output.
layout(location = 0) out vec4 color;
void main()
{
   color = vec4(float(gl_SampleID), float(gl_SampleMaskIn[0]), 0.0, 1.0);
   gl_SampleMask[0] = gl_SampleMaskIn[0] & 5;
}
