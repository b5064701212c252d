#version 450
// The colour varying carries the window position: interpolateAtSample(3)
// is the pixel plus (0.625, 0.875), interpolateAtOffset the pixel centre
// plus (-0.25, 0.125) (blue: the mean of its fractions 0.25 and 0.625),
// interpolateAtCentroid of a fully covered pixel a
// position inside it (vkppu: the centre).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   vec2 s = fract(interpolateAtSample(v_color, 3).xy);
   vec2 o = fract(interpolateAtOffset(v_color, vec2(-0.25, 0.125)).xy);
   float c = fract(interpolateAtCentroid(v_color.y));
   o_color = vec4(s, 0.5 * (o.x + o.y), c);
}
