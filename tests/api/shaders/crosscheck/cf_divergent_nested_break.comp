// tolerance: exact
// Nested loops where lanes break at different depths.
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
   uint s = 0u;
   for (uint x = 0u; x < 8u; x++) {
      uint y = 0u;
      while (true) {
         if (y >= ((a >> (x * 4u)) & 15u))
            break;
         if ((b ^ y) % 7u == 0u)
            break;
         s += y + x;
         y++;
      }
      if (s > 100u + (c & 255u))
         break;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = s * 3u;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 0u;
}
