// tolerance: exact
// break out of a switch from inside an if.
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
   uint r = 5u;
   switch (b & 3u) {
   case 0u:
      if ((a & 1u) != 0u) {
         r = 7u;
         break;
      }
      r = 9u;
      break;
   case 1u:
      if (a > c)
         break;
      r = 11u;
   default:
      r += 100u;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = b & 3u;
   out_data[o + 2u] = r * 2u;
   out_data[o + 3u] = 0u;
}
