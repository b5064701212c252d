#version 450
// A mat2 vertex input over locations 1 and 2 (test_graphics.c): column 0
// from the vertex colour's first two components, column 1 from the
// instanced pipeline's per-instance offset; the colour is (m[0], m[1].x).
layout(location = 0) in vec3 pos;
layout(location = 1) in mat2 m;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos, 1.0);
   v_color = vec4(m[0], m[1].x, 1.0);
}
