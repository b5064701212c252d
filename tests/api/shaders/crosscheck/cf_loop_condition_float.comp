// tolerance: exact
// Loop driven by a float accumulator.
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
   float acc = 0.0;
   uint n = 0u;
   float step = float((a & 15u) + 1u) * 0.25;
   while (acc < 20.0) {
      acc += step;
      n++;
   }
   out_data[o + 0u] = n;
   out_data[o + 1u] = floatBitsToUint(acc);
   out_data[o + 2u] = 0u;
   out_data[o + 3u] = 1u;
}
