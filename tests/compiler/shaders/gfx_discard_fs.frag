#version 450
// Alpha test with derivatives and a depth write.
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   vec2 w = fwidth(texcoord);
   if (dFdx(texcoord.x) + dFdyFine(texcoord.y) + dFdxCoarse(texcoord.y) > 0.5)
      discard;
   color = vec4(w, 0.0, 1.0);
   gl_FragDepth = texcoord.x;
}
