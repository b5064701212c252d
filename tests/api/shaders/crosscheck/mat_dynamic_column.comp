// tolerance: ulp 0
// Dynamic column and element indexing of mat4 and mat3.
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
   mat4 m = mat4(vec4(fx(a), fx(b), fx(c), fx(d)), vec4(1.0, 2.0, 3.0, 4.0), vec4(fx(d)), vec4(-1.0));
   mat3 n = mat3(fx(c));
   uint k = a & 3u, r = b & 3u;
   m[k][r] = 0.5;
   n[c % 3u] = vec3(fx(a), 7.0, -7.0);
   out_data[o + 0u] = floatBitsToUint(m[k][r] + m[3u - k][r]);
   out_data[o + 1u] = floatBitsToUint(m[r].y);
   out_data[o + 2u] = floatBitsToUint(n[d % 3u][a % 3u]);
   out_data[o + 3u] = floatBitsToUint(dot(m[k], vec4(1.0)) + n[1].z);
}
