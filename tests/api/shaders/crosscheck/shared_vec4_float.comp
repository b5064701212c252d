// tolerance: ulp 0
// Shared arrays of vec4: exchange between invocations.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
// Exact inputs: 12-bit integers over 64, in [-32, 32).
float fx(uint b) { return float(int(b & 0xfffu) - 2048) * (1.0 / 64.0); }
shared vec4 sv[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   sv[l] = vec4(fx(a), fx(b), fx(c), fx(d));
   barrier();
   vec4 n = sv[(l + 17u) & 63u];
   vec4 m = sv[l ^ 1u];
   out_data[o + 0u] = floatBitsToUint(n.x + m.y);
   out_data[o + 1u] = floatBitsToUint(n.w * m.z);
   out_data[o + 2u] = floatBitsToUint(sv[63u - l].y);
   out_data[o + 3u] = floatBitsToUint(dot(n, vec4(1.0)));
}
