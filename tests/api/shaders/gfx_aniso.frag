#version 450
// Samples the texture at uv = v_color.xy with implicit derivatives (the
// anisotropy test's tilted floor: test_texture_anisotropy.c).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = texture(tex, v_color.xy);
}
