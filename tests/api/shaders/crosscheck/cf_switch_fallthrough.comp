// tolerance: exact
// switch with fallthrough, default in the middle.
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
   switch (a & 7u) {
   case 0u:
      r += 1u;
   case 1u:
      r += 10u;
      break;
   case 2u:
   case 3u:
      r += 100u;
   default:
      r += 1000u;
   case 6u:
      r += 10000u;
      break;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = a & 7u;
   out_data[o + 2u] = r + b;
   out_data[o + 3u] = 0u;
}
