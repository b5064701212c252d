// tolerance: ulp 2
// unpackUnorm4x8/Snorm4x8/Unorm2x16/Snorm2x16 of any bits.
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
   vec4 u = unpackUnorm4x8(a), s = unpackSnorm4x8(b);
   vec2 p = unpackUnorm2x16(c), q = unpackSnorm2x16(d);
   uint k = i & 3u;
   out_data[o + 0u] = floatBitsToUint(u[k]);
   out_data[o + 1u] = floatBitsToUint(s[k]);
   out_data[o + 2u] = floatBitsToUint(p[k & 1u]);
   out_data[o + 3u] = floatBitsToUint(q[k >> 1]);
}
