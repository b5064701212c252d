#version 450
#extension GL_EXT_terminate_invocation : require
// Pixels right of x = 16 terminate: nothing after the instruction runs and
// they write nothing; the others write their colour.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
   o_color = vec4(0.0, 0.0, 1.0, 1.0);
   if (gl_FragCoord.x > 16.0)
      terminateInvocation;
   o_color = v_color;
}
