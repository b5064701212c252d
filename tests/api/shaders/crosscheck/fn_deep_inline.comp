// tolerance: exact
// Five levels of function calls with early returns.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint f1(uint x) { return (x & 1u) != 0u ? x * 3u + 1u : x >> 1; }
uint f2(uint x)
{
   if (x == 0u)
      return 17u;
   return f1(f1(x));
}
uint f3(uint x)
{
   uint s = 0u;
   for (uint k = 0u; k < 3u; k++) {
      if (s > 0xf0000000u)
         return s;
      s += f2(x + k);
   }
   return s;
}
uint f4(uint x) { return f3(x) ^ f3(x >> 7); }
uint f5(uint x) { return x < 16u ? f2(x) : f4(x) + f1(x); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   out_data[o + 0u] = f5(a);
   out_data[o + 1u] = f5(b ^ c);
   out_data[o + 2u] = f5(0u);
   out_data[o + 3u] = f1(d) + f2(d);
}
