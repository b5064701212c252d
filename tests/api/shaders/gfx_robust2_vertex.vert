#version 450
// robustBufferAccess2 on vertex input: records the colour attribute each
// vertex fetched (colors[gl_VertexIndex]), so a test can see which
// vertices read their data and which read (0, 0, 0, 1).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(set = 0, binding = 0, std430) buffer Seen {
   vec4 colors[];
};
void main()
{
   gl_Position = vec4(pos, 1.0);
   gl_PointSize = 1.0;
   v_color = color;
   colors[gl_VertexIndex] = color;
}
