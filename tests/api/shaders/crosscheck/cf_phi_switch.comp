// tolerance: exact
// Values assigned in each switch case and merged after it.
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
   uint x, y = 1u;
   switch (a % 5u) {
   case 0u: x = b; y = 2u; break;
   case 1u: x = c; break;
   case 2u: x = b ^ c;
   case 3u: x = d + 1u; y = 3u; break;
   default: x = 0u; y = b; break;
   }
   out_data[o + 0u] = x;
   out_data[o + 1u] = y;
   out_data[o + 2u] = x * y;
   out_data[o + 3u] = a % 5u;
}
