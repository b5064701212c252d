#version 450
// Reads every clip distance and one cull distance: slots at the distances'
// pseudo-locations after the user varyings.
layout(location = 1) in float v;
in float gl_ClipDistance[3];
in float gl_CullDistance[2];
layout(location = 0) out vec4 o;
void main()
{
   o = vec4(gl_ClipDistance[0] + gl_ClipDistance[2], gl_ClipDistance[1], gl_CullDistance[1], v);
}
