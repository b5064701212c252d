// tolerance: exact
// Loop inside if inside loop, with continue at both depths.
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
   for (uint x = 0u; x < 10u; x++) {
      if (((a >> x) & 1u) != 0u) {
         for (uint y = x; y < 12u; y++) {
            if ((y & 3u) == (b & 3u))
               continue;
            s += y * x + 1u;
         }
      } else {
         if ((c >> x & 3u) == 0u)
            continue;
         s ^= d >> x;
      }
      s = s * 3u + x;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = s >> 8;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
