// tolerance: ulp 0
// Constant array of vec4 indexed dynamically inside a loop.
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
   const vec4 t[4] = vec4[4](vec4(1.0, 2.0, 3.0, 4.0), vec4(-1.0, 0.5, 0.25, 8.0),
                             vec4(0.0, -2.0, 16.0, 1.5), vec4(3.0, 3.0, -3.0, 0.125));
   vec4 s = vec4(0.0);
   for (uint k = 0u; k < 8u; k++)
      s += t[(a >> (k * 2u)) & 3u] * float(k);
   out_data[o + 0u] = floatBitsToUint(s.x);
   out_data[o + 1u] = floatBitsToUint(s.y);
   out_data[o + 2u] = floatBitsToUint(s.z);
   out_data[o + 3u] = floatBitsToUint(s.w);
}
