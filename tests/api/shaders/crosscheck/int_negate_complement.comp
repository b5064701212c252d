// tolerance: exact
// Negation, complement, increments.
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
   int x = int(a);
   int y = x;
   y++;
   y += 5;
   y -= int(b);
   uint z = c;
   z--;
   out_data[o + 0u] = uint(-x);
   out_data[o + 1u] = uint(~x);
   out_data[o + 2u] = uint(y);
   out_data[o + 3u] = z;
}
