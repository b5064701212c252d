// tolerance: exact
// Histogram with shared-memory atomics (order-independent counts).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint bins[16];
shared uint bor[16];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   if (l < 16u) {
      bins[l] = 0u;
      bor[l] = 0u;
   }
   barrier();
   atomicAdd(bins[a & 15u], 1u);
   atomicAdd(bins[b >> 28], 2u);
   atomicOr(bor[c & 15u], 1u << (d & 31u));
   barrier();
   out_data[o + 0u] = bins[l & 15u];
   out_data[o + 1u] = bor[l & 15u];
   out_data[o + 2u] = bins[(l + 3u) & 15u] * 100u + bins[l >> 2];
   out_data[o + 3u] = 0u;
}
