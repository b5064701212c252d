// tolerance: exact
// Prefix sums over a local array with loop-carried reads.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint v[16];
   v[0] = a & 0xffu;
   for (uint k = 1u; k < 16u; k++)
      v[k] = v[k - 1u] + ((in_data[(o + k) & 4095u] >> 8) & 0xffu);
   uint idx = b & 15u;
   out_data[o + 0u] = v[15];
   out_data[o + 1u] = v[idx];
   out_data[o + 2u] = v[idx] - v[idx >> 1];
   out_data[o + 3u] = v[(c & 7u) * 2u];
}
