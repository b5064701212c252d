// tolerance: exact
// Local struct with an array member, dynamic indices.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct Bag {
   uint items[8];
   uint n;
};
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   Bag bag;
   bag.n = 0u;
   for (uint k = 0u; k < 8u; k++) {
      if (((a >> k) & 1u) != 0u) {
         bag.items[bag.n] = k * b;
         bag.n++;
      }
   }
   uint s = 0u;
   for (uint k = 0u; k < bag.n; k++)
      s += bag.items[k];
   out_data[o + 0u] = bag.n;
   out_data[o + 1u] = s;
   out_data[o + 2u] = bag.n > 0u ? bag.items[(c % bag.n)] : 99u;
   out_data[o + 3u] = 0u;
}
