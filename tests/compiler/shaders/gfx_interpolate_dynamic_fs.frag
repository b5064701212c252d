#version 450
// interpolateAtCentroid of an element chosen at run time: refused.
layout(location = 0) in vec2 texcoord[2];
layout(location = 0) out vec4 color;
void main()
{
   int i = int(gl_FragCoord.x) & 1;
   color = vec4(interpolateAtCentroid(texcoord[i]), 0.0, 1.0);
}
