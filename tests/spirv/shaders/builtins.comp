#version 460
// Compute built-in inputs and an explicit (non-main) workgroup layout with z.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, binding = 0) buffer B { uvec4 data[]; } b;
void main() {
   uvec3 g = gl_GlobalInvocationID;
   b.data[gl_LocalInvocationIndex] =
      uvec4(g + gl_NumWorkGroups + gl_WorkGroupID * gl_WorkGroupSize, gl_LocalInvocationID.z);
}
