#version 450
// interpolateAt* of a whole input and of one component (a constant access
// chain); none of them makes the shader run per sample.
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   color = vec4(interpolateAtSample(texcoord, 2), interpolateAtOffset(texcoord.y, vec2(0.25)),
                interpolateAtCentroid(texcoord).x);
}
