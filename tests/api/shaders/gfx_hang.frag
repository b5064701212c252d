#version 450
// A fragment shader that never ends: x halves towards 0 and stays above -1.
// The compiler cannot know v_color.a, so the loop stays.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   float x = v_color.a + 1.0;
   while (x > -1.0)
      x *= 0.5;
   o_color = v_color * x;
}
