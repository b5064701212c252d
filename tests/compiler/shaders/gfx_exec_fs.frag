#version 450
// Executed on the model: plane evaluation, gl_FragCoord, a derivative,
// a flat input and discard.
layout(location = 0) in vec4 v_color;
layout(location = 1) flat in uint v_instance;
layout(location = 0) out vec4 o;
void main()
{
   if (gl_FragCoord.x < 4.0)
      discard;
   o = vec4(v_color.r, gl_FragCoord.y / 16.0, dFdx(v_color.r) * 16.0, float(v_instance + 1u));
}
