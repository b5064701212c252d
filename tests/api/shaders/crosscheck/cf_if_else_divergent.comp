// tolerance: exact
// if/else divergent by lane.
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
   uint r;
   if ((a & 1u) != 0u)
      r = b * 3u;
   else
      r = c ^ d;
   uint s = 0u;
   if ((i & 2u) != 0u) {
      s = a + 1u;
   } else if ((i & 4u) != 0u) {
      s = b + 2u;
   } else {
      s = c + 3u;
   }
   out_data[o + 0u] = r;
   out_data[o + 1u] = s;
   out_data[o + 2u] = (a > b) ? r : s;
   out_data[o + 3u] = i;
}
