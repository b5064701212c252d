#version 450
// The interpolated distances as the colour: clip 0, clip 1, cull 0.
in float gl_ClipDistance[2];
in float gl_CullDistance[1];
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_CullDistance[0], 1.0);
}
