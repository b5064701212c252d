// tolerance: exact
// uintBitsToFloat then floatBitsToUint keeps any bits.
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
   float f = uintBitsToFloat(a);
   vec2 g = uintBitsToFloat(uvec2(b, c));
   int k = floatBitsToInt(intBitsToFloat(int(d)));
   out_data[o + 0u] = floatBitsToUint(f);
   out_data[o + 1u] = floatBitsToUint(g.x);
   out_data[o + 2u] = floatBitsToUint(g.y);
   out_data[o + 3u] = uint(k);
}
