// tolerance: exact
// Specialization constants at their default values (no VkSpecializationInfo).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
layout(constant_id = 0) const uint K = 7u;
layout(constant_id = 1) const uint M = 3u;
layout(constant_id = 2) const int NEG = -5;
layout(constant_id = 3) const bool FLAG = true;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint t[K];
   for (uint k = 0u; k < K; k++)
      t[k] = a + k * M;
   out_data[o + 0u] = K * M + uint(NEG);
   out_data[o + 1u] = t[b % K];
   out_data[o + 2u] = uint(FLAG) + (FLAG ? c : d);
   out_data[o + 3u] = uint(int(a) * NEG);
}
