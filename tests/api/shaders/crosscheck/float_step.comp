// tolerance: ulp 0
// step with scalar and vector edges.
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
   float x = fx(a), e = fx(b);
   vec4 v = vec4(fx(c), fx(d), x, e);
   vec4 s = step(vec4(0.5), v);
   out_data[o + 0u] = floatBitsToUint(step(e, x));
   out_data[o + 1u] = floatBitsToUint(step(x, e));
   out_data[o + 2u] = floatBitsToUint(dot(s, vec4(1.0, 2.0, 4.0, 8.0)));
   out_data[o + 3u] = floatBitsToUint(step(0.0, fx(d)));
}
