#version 450
// The colour varying carries the window position; `sample` evaluates it at
// the sample, so its fraction is the sample's position in the pixel.
layout(location = 0) sample in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   vec2 f = fract(v_color.xy);
   o_color = vec4(f * f, 0.0, 1.0);
}
