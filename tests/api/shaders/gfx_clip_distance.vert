#version 450
// Two clip distances and one cull distance from the vertex's second
// attribute (x, y, z), point size 1 (test_graphics_clip_distance.c).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 dist;
out gl_PerVertex
{
   vec4 gl_Position;
   float gl_PointSize;
   float gl_ClipDistance[2];
   float gl_CullDistance[1];
};
void main()
{
   gl_Position = vec4(pos, 1.0);
   gl_PointSize = 1.0;
   gl_ClipDistance[0] = dist.x;
   gl_ClipDistance[1] = dist.y;
   gl_CullDistance[0] = dist.z;
}
