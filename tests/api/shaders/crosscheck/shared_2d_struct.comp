// tolerance: exact
// Shared 2-D array of structs, dynamic indices.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct Cell {
   uint k;
   int v;
};
shared Cell grid[8][8];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   grid[l >> 3][l & 7u] = Cell(a, int(b));
   barrier();
   Cell c0 = grid[(l + 1u) & 7u][l >> 3];
   Cell c1 = grid[c & 7u][d & 7u];
   out_data[o + 0u] = c0.k;
   out_data[o + 1u] = uint(c0.v);
   out_data[o + 2u] = c1.k + uint(c1.v);
   out_data[o + 3u] = 0u;
}
