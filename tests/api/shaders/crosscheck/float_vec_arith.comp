// tolerance: ulp 0
// vec2/vec3/vec4 component-wise arithmetic of exact values.
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
   vec4 v = vec4(fx(a), fx(b), fx(c), fx(d));
   vec3 w = v.xyz * v.yzw + v.www;
   vec2 p = v.xy - v.zw * 0.5;
   out_data[o + 0u] = floatBitsToUint(w.x);
   out_data[o + 1u] = floatBitsToUint(w.y + w.z);
   out_data[o + 2u] = floatBitsToUint(p.x);
   out_data[o + 3u] = floatBitsToUint(p.y * -v.x);
}
