// tolerance: exact
// packHalf2x16 of values exact in half precision.
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
   vec2 v = vec2(float(int(a & 0xfffu) - 2048) * (1.0 / 16.0), float(int(b & 0x7ffu)) * 32.0);
   out_data[o + 0u] = packHalf2x16(v);
   out_data[o + 1u] = packHalf2x16(v.yx);
   out_data[o + 2u] = packHalf2x16(vec2(0.0, -2.5));
   out_data[o + 3u] = packHalf2x16(vec2(fx(c) * 0.125, 65504.0));
}
