// tolerance: ulp 0
// outerProduct of exact vectors.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   vec3 p = vec3(fx(a), fx(b), fx(c));
   vec2 q = vec2(fx(d), 0.5);
   mat2x3 m = outerProduct(p, q);
   mat4 n = outerProduct(vec4(p, 1.0), vec4(q, q));
   out_data[o + 0u] = floatBitsToUint(m[0][1]);
   out_data[o + 1u] = floatBitsToUint(m[1][2]);
   out_data[o + 2u] = floatBitsToUint(n[2][3]);
   out_data[o + 3u] = floatBitsToUint(n[3][0] + n[0][2]);
}
