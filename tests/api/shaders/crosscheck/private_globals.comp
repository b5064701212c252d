// tolerance: exact
// Private (global) variables and arrays written by functions.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint g_table[8];
uint g_count;
void bump(uint k)
{
   g_table[k] += 1u;
   g_count++;
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   g_count = 0u;
   for (uint k = 0u; k < 8u; k++)
      g_table[k] = in_data[(o + k) & 4095u];
   bump(a & 7u);
   bump(b & 7u);
   out_data[o + 0u] = g_count;
   out_data[o + 1u] = g_table[a & 7u];
   out_data[o + 2u] = g_table[c & 7u] ^ g_table[d & 7u];
   out_data[o + 3u] = g_table[0] + g_table[7];
}
