// tolerance: exact
// Signed and unsigned overflow wrap inside loops.
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
   int s = int(a);
   uint u = b;
   for (int k = 0; k < 20; k++) {
      s = s * 7 + 0x7654321;
      u = u * 0xdeadbeefu - 1u;
   }
   out_data[o + 0u] = uint(s);
   out_data[o + 1u] = u;
   out_data[o + 2u] = uint(s >> 16);
   out_data[o + 3u] = u >> 20;
}
