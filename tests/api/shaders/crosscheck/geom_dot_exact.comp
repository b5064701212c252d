// tolerance: ulp 0
// dot and cross of exact 12-bit values have exact results.
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
   vec3 p = vec3(fx(a), fx(b), fx(c)) * 0.25, q = vec3(fx(d), fx(a >> 12), fx(b >> 12)) * 0.25;
   vec3 x = cross(p, q);
   out_data[o + 0u] = floatBitsToUint(dot(p, q));
   out_data[o + 1u] = floatBitsToUint(x.x);
   out_data[o + 2u] = floatBitsToUint(x.y);
   out_data[o + 3u] = floatBitsToUint(x.z);
}
