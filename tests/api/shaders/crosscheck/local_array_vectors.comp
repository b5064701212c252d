// tolerance: exact
// Local arrays of vectors and of structs, dynamic.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct S2 {
   uint x;
   uvec2 y;
};
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uvec4 v[4] = uvec4[4](uvec4(a), uvec4(b), uvec4(c), uvec4(d));
   v[a & 3u][b & 3u] = seed;
   S2 s[3];
   for (int k = 0; k < 3; k++)
      s[k] = S2(uint(k) + a, uvec2(b, uint(k)));
   s[c % 3u].y.x = d;
   out_data[o + 0u] = v[b & 3u].x + v[a & 3u].w;
   out_data[o + 1u] = v[0].y ^ v[3].z;
   out_data[o + 2u] = s[d % 3u].x + s[(d >> 2) % 3u].y.x;
   out_data[o + 3u] = s[c % 3u].y.x;
}
