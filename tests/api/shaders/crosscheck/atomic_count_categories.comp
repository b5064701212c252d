// tolerance: exact
// Counting by category with atomicAdd(1).
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
   atomicAdd(out_data[a & 15u], 1u);
   if (b > c)
      atomicAdd(out_data[16u], 1u);
   if ((d & 3u) == 0u)
      atomicAdd(out_data[17u + (d >> 30)], 1u);
}
