#version 450
// As gfx_ss_sample_in.frag without `sample`: per sample only when the
// pipeline asks for sample shading (minSampleShading).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   vec2 f = fract(v_color.xy);
   o_color = vec4(f * f, 0.0, 1.0);
}
