// tolerance: abs 1e-5 rel 1e-6
// mat2x3 / mat3x2 / mat4x3 products.
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
   mat2x3 a23 = mat2x3(fx(a), fx(b), fx(c), fx(d), 1.0, 0.5);
   mat3x2 a32 = mat3x2(fx(d), fx(c), 0.25, fx(b), fx(a), -1.0);
   mat3 p = a23 * a32;
   mat2 q = a32 * a23;
   vec3 r = a23 * vec2(fx(a >> 12), 2.0);
   mat4x3 w = mat4x3(1.0);
   vec3 s = w * vec4(r, 1.0);
   out_data[o + 0u] = floatBitsToUint(p[2][1]);
   out_data[o + 1u] = floatBitsToUint(q[1][0]);
   out_data[o + 2u] = floatBitsToUint(r.y + r.z);
   out_data[o + 3u] = floatBitsToUint(s.x);
}
