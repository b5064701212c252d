#version 460
// As gfx_basic.vert, coloured by the draw parameters instead: red =
// BaseVertex, green = BaseInstance, blue = DrawIndex (in 1/255 steps).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main()
{
   gl_Position = vec4(pos, 1.0);
   v_color = vec4(vec3(float(gl_BaseVertex), float(gl_BaseInstance), float(gl_DrawID)) / 255.0,
                  color.a);
}
