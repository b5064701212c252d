// tolerance: exact
// Shared atomicMin/Max/And/Xor/CompSwap, then read back.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
shared uint s_min;
shared uint s_max;
shared uint s_and;
shared uint s_xor;
shared uint s_flag;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   if (l == 0u) {
      s_min = 0xffffffffu;
      s_max = 0u;
      s_and = 0xffffffffu;
      s_xor = 0u;
      s_flag = 0u;
   }
   barrier();
   atomicMin(s_min, a);
   atomicMax(s_max, b);
   atomicAnd(s_and, c | 0x0f0f0f0fu);
   atomicXor(s_xor, d);
   atomicCompSwap(s_flag, 0u, 1u);
   barrier();
   out_data[o + 0u] = s_min;
   out_data[o + 1u] = s_max;
   out_data[o + 2u] = s_and ^ s_xor;
   out_data[o + 3u] = s_flag;
}
