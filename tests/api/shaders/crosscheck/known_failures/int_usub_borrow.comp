// tolerance: exact
// usubBorrow: difference and borrow.
//
// KNOWN FAILURE (vkppu compiler): OpISubBorrow is not supported. vkCreateComputePipelines
// returns VK_ERROR_UNKNOWN with "compiler: word N (OpISubBorrow): unsupported
// instruction OpISubBorrow". It is core SPIR-V (GLSL usubBorrow), and
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
   uint borrow;
   uint diff = usubBorrow(a, b, borrow);
   out_data[o + 0u] = diff;
   out_data[o + 1u] = borrow;
   out_data[o + 2u] = usubBorrow(c, d | 1u, borrow) ^ borrow;
   out_data[o + 3u] = 0u;
}
