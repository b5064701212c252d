// tolerance: exact
// switch on negative int cases.
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
   int v = int(a % 9u) - 4;
   int r;
   switch (v) {
   case -4: r = 40; break;
   case -1: r = 10; break;
   case 0: r = 0; break;
   case 3: r = -30; break;
   default: r = v * 100; break;
   }
   out_data[o + 0u] = uint(r);
   out_data[o + 1u] = uint(v);
   out_data[o + 2u] = uint(r + v);
   out_data[o + 3u] = 0u;
}
