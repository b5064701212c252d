// tolerance: ulp 0
// unpackHalf2x16 of any bits (halves are exact in float).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   vec2 h = unpackHalf2x16(a), g = unpackHalf2x16(b & 0x7bff7bffu);
   out_data[o + 0u] = floatBitsToUint(h.x);
   out_data[o + 1u] = floatBitsToUint(h.y);
   out_data[o + 2u] = floatBitsToUint(g.x + g.y);
   out_data[o + 3u] = floatBitsToUint(unpackHalf2x16(packHalf2x16(vec2(1.5, -0.375))).y);
}
