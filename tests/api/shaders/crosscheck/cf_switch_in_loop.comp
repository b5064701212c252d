// tolerance: exact
// A switch inside a loop with continue.
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
   for (uint k = 0u; k < 16u; k++) {
      uint sel = (a >> (k * 2u)) & 3u;
      if (sel == 3u)
         continue;
      switch (sel) {
      case 0u: s += k; break;
      case 1u: s *= 3u; break;
      default: s ^= b; break;
      }
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = s + c;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
