// tolerance: exact
// abs and sign on ivec4, min/max on mixed vector and scalar.
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
   ivec4 v = ivec4(uvec4(a, b, c, d) & 0x7fffffffu) - ivec4(0x40000000);
   ivec4 s = sign(v), m = abs(v);
   ivec4 lo = min(v, 12345), hi = max(v, ivec4(-7));
   out_data[o + 0u] = uint(s.x + s.y * 3 + s.z * 9 + s.w * 27);
   out_data[o + 1u] = uint(m.x ^ m.y ^ m.z ^ m.w);
   out_data[o + 2u] = uint(lo.x + lo.y + lo.z + lo.w);
   out_data[o + 3u] = uint(hi.x ^ hi.w);
}
