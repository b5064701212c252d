#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Odd columns demote: they write nothing but keep running as helpers, so
// the even column's dFdx of x*x still sees its neighbour: (x0+1.5)^2 -
// (x0+0.5)^2 = 2*x0 + 2. Red says whether the lane thinks it is a helper.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   float x = gl_FragCoord.x;
   if ((int(x) & 1) == 1)
      demote;
   float v = x * x;
   o_color = vec4(helperInvocationEXT() ? 1.0 : 0.0, dFdxFine(v) / 64.0, v_color.b, 1.0);
}
