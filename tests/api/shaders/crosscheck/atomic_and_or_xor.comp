// tolerance: exact
// atomicAnd/Or/Xor: order-independent bit results.
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
   atomicOr(out_data[(i & 63u) * 4u], 1u << (a & 31u));
   atomicXor(out_data[(i & 63u) * 4u + 1u], b);
   atomicAnd(out_data[(i & 63u) * 4u + 2u], 0u);
   atomicOr(out_data[2048u + (i & 7u)], c & 0x01010101u);
}
