#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit atomics: add with carries into the high word, min and max.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Acc { uint64_t sum; uint64_t mn; uint64_t mx; };
void main() {
   uint64_t v = (uint64_t(gl_GlobalInvocationID.x) << 33) + 0xffffffffUL;
   atomicAdd(sum, v);
   atomicMin(mn, v);
   atomicMax(mx, v);
}
