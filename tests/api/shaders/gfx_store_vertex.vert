#version 450
// gfx_basic.vert that also records its vertex: vertices[gl_VertexIndex] =
// gl_VertexIndex + 1 (vertexPipelineStoresAndAtomics).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(set = 0, binding = 0, std430) buffer Counts { uint fragments; uint vertices[]; };
void main()
{
   gl_Position = vec4(pos, 1.0);
   gl_PointSize = 1.0;
   v_color = color;
   vertices[gl_VertexIndex] = uint(gl_VertexIndex) + 1u;
}
