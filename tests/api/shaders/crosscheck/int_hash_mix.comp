// tolerance: exact
// A long integer chain (murmur finalizer, xorshift rounds).
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
   uint h = a ^ seed;
   for (int k = 0; k < 4; k++) {
      h ^= h >> 16;
      h *= 0x85ebca6bu;
      h ^= h >> 13;
      h *= 0xc2b2ae35u;
      h ^= h >> 16;
      h += b;
   }
   uint x = c;
   x ^= x << 13;
   x ^= x >> 17;
   x ^= x << 5;
   out_data[o + 0u] = h;
   out_data[o + 1u] = x;
   out_data[o + 2u] = h ^ x;
   out_data[o + 3u] = (h >> 3) + (x << 7);
}
