// tolerance: exact
// Bool conversions to and from numbers.
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
   bool p = a > b;
   bool q = bool(c & 1u);
   bool r = bool(int(d >> 31));
   bool s = bool(float(a & 1u));
   out_data[o + 0u] = uint(p) + uint(q) * 2u + uint(r) * 4u + uint(s) * 8u;
   out_data[o + 1u] = uint(int(p) - int(q));
   out_data[o + 2u] = floatBitsToUint(float(p) + float(q) * 2.0);
   out_data[o + 3u] = uint(bool(a & 0u));
}
