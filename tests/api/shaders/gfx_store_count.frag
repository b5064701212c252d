#version 450
// Counts its invocations with an atomic and writes its colour, and takes a
// derivative so the quads on the triangle's edges run helper lanes: the
// count must be the covered pixels only (fragmentStoresAndAtomics; helpers
// write no memory).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0, std430) buffer Counts { uint fragments; uint vertices[]; };
void main()
{
   float d = dFdx(v_color.r) + dFdy(v_color.g);
   atomicAdd(fragments, 1u);
   o_color = vec4(v_color.rgb, 1.0 + d * 0.0);
}
