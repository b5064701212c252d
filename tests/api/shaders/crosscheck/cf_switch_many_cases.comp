// tolerance: exact
// A switch with sixteen cases, sparse and negative labels.
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
   int v = int(a & 31u) - 8;
   uint r;
   switch (v) {
   case -8: r = 1u; break;
   case -7: r = 2u; break;
   case -5: r = 3u; break;
   case -1: r = 4u; break;
   case 0: r = 5u; break;
   case 1: r = 6u; break;
   case 2: r = 7u; break;
   case 3: r = 8u; break;
   case 5: r = 9u; break;
   case 8: r = 10u; break;
   case 9: r = 11u; break;
   case 12: r = 12u;
   case 13: r = 13u; break;
   case 17: r = 14u; break;
   case 20: r = 15u; break;
   case 23: r = 16u; break;
   default: r = 0u; break;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = uint(v);
   out_data[o + 2u] = r * 3u + b;
   out_data[o + 3u] = 0u;
}
