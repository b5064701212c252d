// tolerance: exact
// continue from inside a switch inside a loop.
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
      switch ((a >> (k * 2u)) & 3u) {
      case 0u:
         continue;
      case 1u:
         s += k;
         break;
      default:
         s ^= b + k;
         break;
      }
      s *= 3u;
   }
   out_data[o + 0u] = s;
   out_data[o + 1u] = s >> 4;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
