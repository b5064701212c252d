#version 450
// OpSpecConstantOp expressions and spec-constant-controlled branches.
layout(local_size_x = 32) in;
layout(constant_id = 7) const int A = 10;
layout(constant_id = 8) const int B = 3;
layout(constant_id = 9) const bool FLAG = true;
const int SUM = A + B;
const int PROD = A * B;
const bool BIG = A > 20;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   int i = int(gl_GlobalInvocationID.x);
   int r = i * SUM + PROD;
   if (FLAG)
      r += 1000;
   if (BIG)
      r = -r;
   o[i] = r;
}
