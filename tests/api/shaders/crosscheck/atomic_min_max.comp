// tolerance: exact
// atomicMin/atomicMax on uint words (min through max of complements).
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
   atomicMax(out_data[(i & 63u) * 4u + 1u], a);
   atomicMax(out_data[(i & 63u) * 4u + 2u], ~b);
   atomicMax(out_data[4000u + (i & 7u)], c & 0xffffffu);
   atomicMin(out_data[3000u + (i & 15u) * 2u], d);
}
