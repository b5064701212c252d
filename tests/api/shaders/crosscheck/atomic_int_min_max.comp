// tolerance: exact
// Signed atomicMin/atomicMax (int view of the words).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { int out_signed[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   atomicMin(out_signed[(i & 31u) * 4u], int(a));
   atomicMax(out_signed[(i & 31u) * 4u + 1u], int(b));
   atomicAdd(out_signed[(i & 31u) * 4u + 2u], int(c >> 8) - 8388608);
}
