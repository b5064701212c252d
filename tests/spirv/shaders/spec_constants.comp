#version 460
// Specialization constants of every scalar kind and an OpSpecConstantOp chain.
layout(local_size_x = 16) in;
layout(constant_id = 0) const int COUNT = 4;
layout(constant_id = 1) const float SCALE = 2.5;
layout(constant_id = 2) const bool ENABLED = true;
layout(constant_id = 3) const uint MASK = 0xf0u;
const int DOUBLE_COUNT = COUNT * 2 + 1;       // OpSpecConstantOp IMul, IAdd
const uint SHIFTED = MASK >> 4;                // OpSpecConstantOp ShiftRightLogical
const bool BOTH = ENABLED && (COUNT > 3);      // OpSpecConstantOp LogicalAnd, SGreaterThan
layout(std430, binding = 0) buffer B { float data[]; } b;
void main() {
   float acc = 0.0;
   for (int i = 0; i < DOUBLE_COUNT; i++)
      acc += SCALE;
   if (BOTH)
      b.data[gl_LocalInvocationID.x] = acc + float(SHIFTED);
}
