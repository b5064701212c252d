// tolerance: exact
// Component-wise division and modulo of ivec4/uvec4 (non-negative signed).
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
   uvec4 x = uvec4(a, b, c, d), y = (x.wzyx >> uvec4(3u, 9u, 17u, 25u)) | 1u;
   ivec4 s = ivec4(x & 0x7fffffffu), t = ivec4(y & 0xffffu) + 1;
   uvec4 q = x / y, r = x % y;
   ivec4 sq = s / t, sr = s % t;
   out_data[o + 0u] = q.x ^ q.y ^ r.z;
   out_data[o + 1u] = q.w + r.x + r.y + r.w;
   out_data[o + 2u] = uint(sq.x + sq.y * 3 + sr.z);
   out_data[o + 3u] = uint(sq.w ^ sr.x ^ sr.y ^ sr.w) + q.z;
}
