// tolerance: exact
// isnan/isinf of any bit pattern (no Inf * 0: Vulkan lets x * 0.0 fold to 0).
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
   float f = uintBitsToFloat(a);
   float inf = uintBitsToFloat(0x7f800000u);
   float nan = uintBitsToFloat(0x7fc00000u | (b & 0xffu));
   out_data[o + 0u] = uint(isnan(f)) | uint(isinf(f)) << 1;
   out_data[o + 1u] = uint(isnan(nan)) | uint(isinf(inf)) << 1 | uint(isinf(-inf)) << 2;
   out_data[o + 2u] = uint(isnan(uintBitsToFloat(b | 0x7f800001u))) | uint(isnan(f + 1.0)) << 1;
   out_data[o + 3u] = uint(isinf(uintBitsToFloat(c | 0x7f800000u)));
}
