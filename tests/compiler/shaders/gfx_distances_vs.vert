#version 450
// Three clip and two cull distances (test_graphics.c): the header holds
// the clip distances first, then the cull distances.
layout(location = 0) in vec4 pos;
layout(location = 1) out float v;
out gl_PerVertex
{
   vec4 gl_Position;
   float gl_ClipDistance[3];
   float gl_CullDistance[2];
};
void main()
{
   gl_Position = pos;
   v = pos.z;
   for (int i = 0; i < 3; i++)
      gl_ClipDistance[i] = pos.x + float(i);
   gl_CullDistance[0] = pos.y;
   gl_CullDistance[1] = -pos.y;
}
