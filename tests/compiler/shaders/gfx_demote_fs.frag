#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Demote keeps the lane running as a helper; early tests; a storage write.
layout(early_fragment_tests) in;
layout(std430, set = 0, binding = 0) buffer Counter { uint n; } counter;
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 color;
void main()
{
   if (texcoord.x < 0.25)
      demote;
   color = vec4(helperInvocationEXT() ? 1.0 : 0.0, dFdx(texcoord.x), 0.0, 1.0);
   atomicAdd(counter.n, 1u);
}
