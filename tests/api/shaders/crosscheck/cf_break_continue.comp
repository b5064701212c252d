// tolerance: exact
// break and continue at two depths.
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
   uint s = 0u, cnt = 0u;
   for (uint x = 0u; x < 32u; x++) {
      if (((a >> x) & 1u) == 0u)
         continue;
      cnt++;
      for (uint y = 0u; y < 8u; y++) {
         if (y == (b & 7u))
            break;
         if (((c >> y) & 1u) != 0u)
            continue;
         s += x * 8u + y;
      }
      if (s > (d & 0xfffu))
         break;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = cnt;
   out_data[o + 2u] = s * cnt;
   out_data[o + 3u] = 0u;
}
