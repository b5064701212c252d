// tolerance: exact
// atomicCompSwap where every winner writes the same value.
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
   atomicCompSwap(out_data[(a & 255u) * 4u + 1u], 0u, 7u);
   atomicCompSwap(out_data[(b & 255u) * 4u + 2u], 0u, (b & 255u) + 1u);
   atomicExchange(out_data[1024u + (c & 7u)], 5u);
}
