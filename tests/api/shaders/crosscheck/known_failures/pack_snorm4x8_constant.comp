// tolerance: exact
// packSnorm4x8 of a constant vector.
//
// KNOWN FAILURE, on the reference side: lavapipe (Mesa 25.0.7, LLVM 15.0.6) folds
// packSnorm4x8(vec4(-1.0, 1.0, 0.0, -0.25)) to 0xffffff81; the right value,
// which vkppu gives, is 0xe0007f81 (bytes -127, 127, 0, round(-31.75) = -32).
// (0.25, -0.25, 1.5, -1.5) should give 0x817fe020 and is folded wrong too.
// The same values computed at run time agree (pack_snorm4x8.comp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint o = gl_GlobalInvocationID.x * 4u;
   out_data[o] = packSnorm4x8(vec4(-1.0, 1.0, 0.0, -0.25));
   out_data[o + 1u] = packSnorm4x8(vec4(0.25, -0.25, 1.5, -1.5));
}
