#version 450
// 2D workgroup: transpose a 16x16 tile through shared memory.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint a[]; };
shared uint tile[16][17];
void main() {
   uvec2 g = gl_GlobalInvocationID.xy, l = gl_LocalInvocationID.xy;
   uint width = gl_NumWorkGroups.x * 16u, height = gl_NumWorkGroups.y * 16u;
   tile[l.y][l.x] = a[g.y * width + g.x];
   barrier();
   uvec2 t = gl_WorkGroupID.yx * 16u + l;
   o[t.y * height + t.x] = tile[l.x][l.y];
}
