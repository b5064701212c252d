#version 460
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_clustered : require
// Subgroup reductions, scans, shuffles and clustered ops.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float f[]; } b;
void main() {
   float v = b.f[gl_GlobalInvocationID.x];
   float sum = subgroupAdd(v);
   float scan = subgroupInclusiveMul(v);
   float mx = subgroupClusteredMax(v, 4u);
   float sh = subgroupShuffleXor(v, 1u);
   b.f[gl_GlobalInvocationID.x] = sum + scan + mx + sh;
}
