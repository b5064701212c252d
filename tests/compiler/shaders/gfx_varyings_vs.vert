#version 450
#extension GL_ARB_shader_draw_parameters : require
// Every interpolation qualifier, instancing built-ins, point size and clip
// distances; location 3 is not read by the fragment shader.
layout(location = 0) in vec3 position;
layout(location = 1) in uvec4 bytes;
layout(location = 0) flat out ivec2 ids;
layout(location = 1) noperspective out vec3 screen;
layout(location = 2) centroid out vec4 tint;
layout(location = 3) out vec4 unused;
layout(location = 4) out float plain;
void main()
{
   ids = ivec2(gl_InstanceIndex - gl_BaseInstanceARB, gl_DrawIDARB + gl_BaseVertexARB);
   screen = position * float(gl_VertexIndex);
   tint = vec4(bytes) / 255.0;
   unused = vec4(1.0);
   plain = position.x;
   gl_PointSize = 3.0;
   gl_ClipDistance[0] = position.x;
   gl_ClipDistance[1] = position.y;
   gl_Position = vec4(position, 1.0);
}
