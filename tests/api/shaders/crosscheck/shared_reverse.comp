// tolerance: exact
// Shared memory: write, barrier, read the mirrored slot.
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
   sh[l] = a;
   barrier();
   out_data[o + 0u] = sh[63u - l];
   out_data[o + 1u] = sh[(l + 1u) & 63u] - a;
   out_data[o + 2u] = sh[l ^ 5u];
   out_data[o + 3u] = l;
}
