// tolerance: exact
// Compute built-ins: ids, sizes, counts.
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
   out_data[o + 0u] = gl_WorkGroupID.x * 1000u + gl_LocalInvocationID.x;
   out_data[o + 1u] = gl_LocalInvocationIndex + gl_WorkGroupSize.x * 65536u;
   out_data[o + 2u] = gl_NumWorkGroups.x + gl_NumWorkGroups.y * 256u + gl_NumWorkGroups.z * 65536u;
   out_data[o + 3u] = gl_GlobalInvocationID.y + gl_GlobalInvocationID.z + gl_WorkGroupSize.y * 10u;
}
