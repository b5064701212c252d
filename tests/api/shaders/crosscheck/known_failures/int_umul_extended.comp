// tolerance: exact
// umulExtended: high and low words of the 64-bit product.
//
// KNOWN FAILURE (vkppu compiler): OpUMulExtended is not supported. vkCreateComputePipelines
// returns VK_ERROR_UNKNOWN with "compiler: word N (OpUMulExtended): unsupported
// instruction OpUMulExtended". It is core SPIR-V (GLSL umulExtended), and
// docs/compiler.md lists it neither as supported nor as unsupported.
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
   uint hi, lo;
   umulExtended(a, b, hi, lo);
   out_data[o + 0u] = hi;
   out_data[o + 1u] = lo;
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
