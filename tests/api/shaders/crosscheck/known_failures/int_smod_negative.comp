// tolerance: exact
// Signed % (OpSMod) with negative operands: the result takes the divisor's sign.
//
// KNOWN FAILURE, on the reference side: lavapipe (Mesa 25.0.7, LLVM 15.0.6) returns
// the truncated remainder (OpSRem) here, e.g. 212213788 % -9 gives 7 where
// OpSMod, and vkppu, give -2 (about 1400 of the 4096 words differ).
// GLSL leaves % with negative operands undefined, so the default list tests
// non-negative operands only (int_smod.comp); this shader keeps the SPIR-V
// rule pinned for when a reference that follows it is available.
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
   int x = int(a), y = int(b);
   if (y == 0) y = 5;
   if (x == int(0x80000000u) && y == -1) y = 1;
   int s = int(c >> 24) - 128;
   if (s == 0) s = -3;
   out_data[o + 0u] = uint(x % y);
   out_data[o + 1u] = uint(x % s);
   out_data[o + 2u] = uint(int(d) % 16);
   out_data[o + 3u] = uint(int(d) % -7);
}
