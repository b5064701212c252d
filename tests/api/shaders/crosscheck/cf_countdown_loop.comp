// tolerance: exact
// Unsigned countdown loops (k-- > 0) and loops with two induction variables.
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
   uint n = a & 31u, s = 0u;
   while (n-- > 0u)
      s += n * b;
   uint p = 0u, q = 100u;
   for (; p < q; p += 3u, q -= 2u)
      s ^= p * q;
   out_data[o + 0u] = s;
   out_data[o + 1u] = n;
   out_data[o + 2u] = p;
   out_data[o + 3u] = q;
}
