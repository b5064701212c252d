#version 450
// Specialization constants: workgroup size through LocalSizeId, values, and a spec-sized array.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MUL = 3u;
layout(constant_id = 2) const int OFFSET = -5;
layout(constant_id = 3) const bool NEGATE = false;
layout(constant_id = 4) const uint LEN = 4u;
layout(set = 0, binding = 0) buffer Out { int o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   int v = int(i * MUL) + OFFSET;
   int arr[LEN];
   for (uint k = 0u; k < LEN; k++)
      arr[k] = int(k) * v;
   int s = 0;
   for (uint k = 0u; k < LEN; k++)
      s += arr[k];
   o[i * 2u] = NEGATE ? -v : v;
   o[i * 2u + 1u] = s + int(gl_WorkGroupSize.x);
}
