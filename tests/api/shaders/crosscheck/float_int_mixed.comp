// tolerance: exact
// Chains mixing float math and int conversions.
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
   float x = float(int(a & 0xfffu) - 2048) * 0.25;
   int k = int(floor(x)) * 3 + int(b & 15u);
   float y = float(k) * 0.5 + x;
   uint m = uint(abs(y) * 4.0);
   out_data[o + 0u] = uint(k);
   out_data[o + 1u] = floatBitsToUint(y);
   out_data[o + 2u] = m;
   out_data[o + 3u] = uint(int(round(y * 2.0 + 0.25)));
}
