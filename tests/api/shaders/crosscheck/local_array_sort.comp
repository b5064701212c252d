// tolerance: exact
// Bubble sort of a local array.
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
   uint v[8];
   for (uint k = 0u; k < 8u; k++)
      v[k] = in_data[(o + k * 13u) & 4095u] >> 20;
   for (uint x = 0u; x < 7u; x++) {
      for (uint y = 0u; y < 7u - x; y++) {
         if (v[y] > v[y + 1u]) {
            uint t = v[y];
            v[y] = v[y + 1u];
            v[y + 1u] = t;
         }
      }
   }
   out_data[o + 0u] = v[0] | v[1] << 16;
   out_data[o + 1u] = v[2] | v[3] << 16;
   out_data[o + 2u] = v[4] | v[5] << 16;
   out_data[o + 3u] = v[6] | v[7] << 16;
}
