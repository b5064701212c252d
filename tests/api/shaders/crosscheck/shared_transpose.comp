// tolerance: exact
// Transposes an 8x8 tile through shared memory.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint sh[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   uint r = l >> 3, k = l & 7u;
   sh[r * 8u + k] = a;
   barrier();
   uint t = sh[k * 8u + r];
   barrier();
   sh[l] = t ^ b;
   barrier();
   out_data[o + 0u] = t;
   out_data[o + 1u] = sh[(l + 9u) & 63u];
   out_data[o + 2u] = r * 8u + k;
   out_data[o + 3u] = 0u;
}
