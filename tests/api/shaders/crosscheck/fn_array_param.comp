// tolerance: exact
// Arrays passed to functions by value and inout.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
uint sum6(uint v[6])
{
   uint s = 0u;
   for (int k = 0; k < 6; k++)
      s += v[k];
   return s;
}
void double_all(inout uint v[6])
{
   for (int k = 0; k < 6; k++)
      v[k] *= 2u;
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint v[6];
   for (uint k = 0u; k < 6u; k++)
      v[k] = (a >> (k * 5u)) & 31u;
   uint before = sum6(v);
   double_all(v);
   out_data[o + 0u] = before;
   out_data[o + 1u] = sum6(v);
   out_data[o + 2u] = v[b % 6u];
   out_data[o + 3u] = v[0] * v[5];
}
