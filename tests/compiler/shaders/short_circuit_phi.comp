#version 450
// && and || short-circuit evaluation (OpPhi in glslang output), with side effects.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer Cnt { uint calls[]; };
bool probe(uint i, uint k) {
   calls[i] += 1u;
   return (i >> k & 1u) == 1u;
}
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint r = 0u;
   if (probe(i, 0u) && probe(i, 1u))
      r |= 1u;
   if (probe(i, 2u) || probe(i, 3u))
      r |= 2u;
   bool c = (i > 10u) && (i < 50u);
   r |= c ? 4u : 0u;
   o[i] = r;
}
