// tolerance: exact
// Structs copied between shared and local memory.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
struct Rec {
   uint id;
   uint vals[3];
};
shared Rec recs[64];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint a = in_data[o], b = in_data[o + 1u], c = in_data[o + 2u], d = in_data[o + 3u];
   uint l = gl_LocalInvocationID.x;
   Rec r;
   r.id = l;
   r.vals = uint[3](a, b, c);
   recs[l] = r;
   barrier();
   Rec n = recs[(l + 11u) & 63u];
   n.vals[d % 3u] += 1u;
   out_data[o + 0u] = n.id;
   out_data[o + 1u] = n.vals[0] ^ n.vals[1] ^ n.vals[2];
   out_data[o + 2u] = recs[l ^ 1u].vals[1];
   out_data[o + 3u] = n.vals[d % 3u];
}
