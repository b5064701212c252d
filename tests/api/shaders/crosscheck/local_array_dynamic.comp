// tolerance: exact
// Local array written and read at dynamic indices.
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
   uint arr[16];
   for (uint k = 0u; k < 16u; k++)
      arr[k] = a * k + b;
   arr[c & 15u] = d;
   arr[(d >> 4) & 15u] += 1u;
   out_data[o + 0u] = arr[a & 15u];
   out_data[o + 1u] = arr[(b >> 8) & 15u];
   out_data[o + 2u] = arr[c & 15u];
   out_data[o + 3u] = arr[15u - (d & 15u)];
}
