// tolerance: exact
// A function returning early from inside a loop and an if.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint first_set(uint x, uint from)
{
   for (uint k = from; k < 32u; k++) {
      if (((x >> k) & 1u) != 0u)
         return k;
   }
   return 99u;
}
uint classify(int v)
{
   if (v < 0)
      return 1u;
   if (v < 1000)
      return 2u;
   if ((v & 1) == 0)
      return 3u;
   return 4u;
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint r = first_set(a, b & 31u);
   out_data[o + 0u] = r;
   out_data[o + 1u] = first_set(b, 0u);
   out_data[o + 2u] = first_set(0u, 3u);
   out_data[o + 3u] = classify(int(c));
}
