// tolerance: exact
// Four nested loops with breaks and continues at every depth.
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
   for (uint w = 0u; w < 3u; w++) {
      for (uint x = 0u; x < 4u; x++) {
         if (((a >> (w * 4u + x)) & 1u) == 0u)
            continue;
         for (uint y = 0u; y < 4u; y++) {
            uint z = 0u;
            do {
               if (((b >> (y * 8u + z)) & 1u) != 0u)
                  break;
               s += w * 1000u + x * 100u + y * 10u + z;
               z++;
            } while (z < 5u);
            if (s > (c & 0xfffu))
               break;
         }
      }
      if ((d >> w & 1u) != 0u)
         break;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = s % 977u;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
