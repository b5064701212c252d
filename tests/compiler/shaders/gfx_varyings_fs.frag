#version 450
// Flat, noperspective, centroid and perspective inputs; fragment built-ins;
// two render targets (locations 0 and 2).
layout(location = 0) flat in ivec2 ids;
layout(location = 1) noperspective in vec3 screen;
layout(location = 2) centroid in vec4 tint;
layout(location = 4) in float plain;
layout(location = 0) out vec4 color0;
layout(location = 2) out uvec4 color2;
void main()
{
   color0 = tint * vec4(screen, plain) + gl_FragCoord;
   color2 = uvec4(ids, gl_FrontFacing ? 1u : 0u, uint(gl_PrimitiveID));
}
