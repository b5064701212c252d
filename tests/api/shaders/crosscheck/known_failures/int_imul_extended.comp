// tolerance: exact
// imulExtended: high and low words of the signed 64-bit product.
//
// KNOWN FAILURE (vkppu compiler): OpSMulExtended is not supported. vkCreateComputePipelines
// returns VK_ERROR_UNKNOWN with "compiler: word N (OpSMulExtended): unsupported
// instruction OpSMulExtended". It is core SPIR-V (GLSL imulExtended), and
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
   int hi, lo;
   imulExtended(int(a), int(b), hi, lo);
   out_data[o + 0u] = uint(hi);
   out_data[o + 1u] = uint(lo);
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
