// tolerance: exact
// A small stack machine on a local array.
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
   uint st[8];
   int sp = 0;
   st[0] = a & 0xffu;
   sp = 1;
   for (uint k = 0u; k < 12u; k++) {
      uint op = (b >> (k * 2u)) & 3u;
      if (op == 0u && sp < 8) {
         st[sp] = (c >> k) & 0xffu;
         sp++;
      } else if (op == 1u && sp > 1) {
         st[sp - 2] += st[sp - 1];
         sp--;
      } else if (op == 2u && sp > 1) {
         st[sp - 2] *= st[sp - 1];
         sp--;
      } else {
         st[sp - 1] ^= d;
      }
   }
   out_data[o + 0u] = st[sp - 1];
   out_data[o + 1u] = uint(sp);
   out_data[o + 2u] = st[0];
   out_data[o + 3u] = 0u;
}
