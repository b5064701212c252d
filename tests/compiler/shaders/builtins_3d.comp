#version 450
// Built-ins over a 3D dispatch.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 3) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
void main() {
   uvec3 g = gl_GlobalInvocationID, n = gl_NumWorkGroups * gl_WorkGroupSize;
   uint idx = g.x + n.x * (g.y + n.y * g.z);
   o[idx * 3u] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
   o[idx * 3u + 1u] = uvec4(gl_WorkGroupID, gl_NumWorkGroups.x);
   o[idx * 3u + 2u] = uvec4(gl_NumWorkGroups.yz, gl_WorkGroupSize.xy);
}
