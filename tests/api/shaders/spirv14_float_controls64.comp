#version 460
// tests/api/test_spirv_1_4.c: spirv14_float_controls32.comp for 64 bits.
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;

spirv_execution_mode(4459, 64); // DenormPreserve
spirv_execution_mode(4461, 64); // SignedZeroInfNanPreserve
spirv_execution_mode(4462, 64); // RoundingModeRTE
// OpFAdd (129) with the capabilities the modes need.
spirv_instruction(capabilities = [4464, 4466, 4467], id = 129) double add_fc(double a, double b);

// Inputs at 0..15, results from 16 on.
layout(std430, binding = 0) buffer Doubles { double d[]; };
layout(push_constant) uniform Push { float one; };

void main()
{
   double one64 = double(one);
   d[16] = d[0] * d[1];       // 2^-1022 * 0.5 = 2^-1023
   d[17] = d[2] + d[2];       // 2^-1074 + 2^-1074 = 2^-1073
   d[18] = add_fc(d[3], d[4]); // 1 + 2^-53 -> 1
   d[19] = d[5] + d[4];       // (1 + 2^-52) + 2^-53 -> 1 + 2^-51
   d[20] = d[6] * one64;      // -0
   d[21] = d[6] + d[6];       // -0
   d[22] = d[7] - one64;      // inf
   d[23] = d[7] * d[8];       // NaN
   d[24] = d[9] + one64;      // NaN
   d[25] = -d[6];             // +0
}
