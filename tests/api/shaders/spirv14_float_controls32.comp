#version 460
// tests/api/test_spirv_1_4.c: the float-controls execution modes vkppu
// reports (DenormPreserve, SignedZeroInfNanPreserve, RoundingModeRTE) for
// 32 bits (glslang keeps one width per mode: 64 bits are in
// spirv14_float_controls64.comp), in a SPIR-V 1.4 module whose entry point
// lists every global it uses: the buffer, the push constants and the
// shared array.
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;

spirv_execution_mode(4459, 32); // DenormPreserve
spirv_execution_mode(4461, 32); // SignedZeroInfNanPreserve
spirv_execution_mode(4462, 32); // RoundingModeRTE
// OpFAdd (129), declared with the capabilities the modes need
// (DenormPreserve 4464, SignedZeroInfNanPreserve 4466, RoundingModeRTE 4467).
spirv_instruction(capabilities = [4464, 4466, 4467], id = 129) float add_fc(float a, float b);

// Inputs at 0..15, results from 16 on (test_spirv_1_4.c, struct fc_*).
layout(std430, binding = 0) buffer Floats { float f[]; };
layout(push_constant) uniform Push { float one; };
shared float negative_zero[1];

void main()
{
   // Denormals: produced and consumed.
   f[16] = f[0] * f[1];       // 2^-126 * 0.5 = 2^-127
   f[17] = f[2] + f[2];       // 2^-149 + 2^-149 = 2^-148
   // Round to nearest even on ties.
   f[18] = add_fc(f[3], f[4]); // 1 + 2^-24 -> 1
   f[19] = f[5] + f[4];       // (1 + 2^-23) + 2^-24 -> 1 + 2^-22
   // Signed zeros, infinities and NaNs.
   f[20] = f[6] * one;        // -0 * 1 = -0
   f[21] = f[6] + f[6];       // -0 + -0 = -0
   f[22] = f[7] - one;        // inf - 1 = inf
   f[23] = f[7] * f[8];       // inf * 0 = NaN
   f[24] = f[9] + one;        // NaN + 1 = NaN
   negative_zero[0] = f[6];
   barrier();
   f[25] = -negative_zero[0]; // -(-0) = +0
}
