// tolerance: exact
// Built-in vectors indexed by a value known only at run time (the compiler
// selects among the built-in's components); out-of-range indices are not used.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o] % 3u, b = in_data[o + 1u] % 3u;
   out_data[o + 0u] = gl_GlobalInvocationID[a];
   out_data[o + 1u] = gl_WorkGroupID[b] * 1000u + gl_LocalInvocationID[a];
   out_data[o + 2u] = gl_NumWorkGroups[b] + gl_WorkGroupSize[a];
   out_data[o + 3u] = a * 3u + b;
}
