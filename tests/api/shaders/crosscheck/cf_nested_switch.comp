// tolerance: exact
// A switch inside a switch case.
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
   uint r = 0u;
   switch (a & 3u) {
   case 0u:
      switch (b & 3u) {
      case 0u: r = 1u; break;
      case 1u: r = 2u;
      default: r += 10u; break;
      }
      r += 100u;
      break;
   case 1u:
      r = 1000u;
   case 2u:
      switch (c & 1u) {
      case 0u: r += 7u; break;
      default: break;
      }
      break;
   default:
      r = d & 0xffu;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = a & 3u;
   out_data[o + 2u] = b & 3u;
   out_data[o + 3u] = c & 1u;
}
