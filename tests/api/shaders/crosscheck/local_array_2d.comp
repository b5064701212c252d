// tolerance: exact
// Two-dimensional local array with dynamic indices.
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
   int m[4][4];
   for (int r = 0; r < 4; r++)
      for (int k = 0; k < 4; k++)
         m[r][k] = int(a >> uint(r * 4 + k)) & 0xff;
   int x = int(b & 3u), y = int(c & 3u);
   m[x][y] = -m[y][x];
   int t = 0;
   for (int k = 0; k < 4; k++)
      t += m[k][(k + x) & 3];
   out_data[o + 0u] = uint(m[x][y]);
   out_data[o + 1u] = uint(m[y][x]);
   out_data[o + 2u] = uint(t);
   out_data[o + 3u] = uint(m[int(d & 3u)][3]);
}
