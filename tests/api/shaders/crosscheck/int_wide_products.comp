// tolerance: exact
// Products whose high bits wrap away, and sums of many terms.
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
   uint s = 0u;
   for (uint k = 0u; k < 8u; k++)
      s += (a + k) * (b ^ k) + (c >> k);
   out_data[o + 0u] = s;
   out_data[o + 1u] = a * a * a;
   out_data[o + 2u] = uint(int(b) * int(b) - int(c) * 3);
   out_data[o + 3u] = (d * 0x9e3779b9u) >> 7;
}
