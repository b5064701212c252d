// tolerance: exact
// Functions with early returns from loops, called inside a loop.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Position of the first nibble of x equal to v, or 8.
uint index_of(uint x, uint v)
{
   for (uint k = 0u; k < 8u; k++) {
      if (((x >> (k * 4u)) & 15u) == v) {
         if (k == 7u)
            return 77u;
         return k;
      }
   }
   return 8u;
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint s = 0u;
   for (uint k = 0u; k < 6u; k++)
      s += index_of(a ^ (k * 0x11111111u), (b >> (k * 4u)) & 15u) + k;
   out_data[o + 0u] = s;
   out_data[o + 1u] = index_of(c, d & 15u);
   out_data[o + 2u] = index_of(0u, 0u);
   out_data[o + 3u] = 0u;
}
