// tolerance: ulp 0
// clamp to [0, 1] (saturate), with vector bounds and mixed signs.
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
   vec4 v = vec4(fx(a), fx(b), fx(c), fx(d)) * 0.0625;
   vec4 s = clamp(v, 0.0, 1.0);
   vec4 t = clamp(v, vec4(-1.0, 0.0, -0.5, 0.25), vec4(0.0, 1.0, 0.5, 0.75));
   out_data[o + 0u] = floatBitsToUint(s.x + s.y);
   out_data[o + 1u] = floatBitsToUint(s.z * s.w);
   out_data[o + 2u] = floatBitsToUint(t.x + t.y + t.z);
   out_data[o + 3u] = floatBitsToUint(t.w);
}
