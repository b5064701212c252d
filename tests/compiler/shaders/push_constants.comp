#version 450
// Push constants: scalars, a vector and an array at their std430 offsets.
layout(local_size_x = 64) in;
layout(push_constant) uniform PC {
   uint mul;
   int add;
   vec2 fscale;
   uint lut[4];
} pc;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   o[i * 3u] = i * pc.mul + uint(pc.add);
   o[i * 3u + 1u] = floatBitsToUint(float(i) * pc.fscale.x + pc.fscale.y);
   o[i * 3u + 2u] = pc.lut[i % 4u];
}
