// tolerance: exact
// do-while executes its body at least once.
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
   uint x = a & 15u, s = 0u;
   do {
      s += x;
      x = x >> 1;
   } while (x != 0u);
   uint y = 0u;
   do {
      y++;
   } while (false);
   out_data[o + 0u] = s;
   out_data[o + 1u] = y;
   out_data[o + 2u] = x;
   out_data[o + 3u] = s + y;
}
