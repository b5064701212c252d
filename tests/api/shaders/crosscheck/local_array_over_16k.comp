// tolerance: exact
// A function-local array of 16.25 KiB per invocation (beyond 16 KiB of local
// memory), written and read at indices known only at run time. Only every
// 64th element is used, to keep the interpreter's run short.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_data[]; };
layout(set = 0, binding = 1) buffer Out { uint out_data[]; };
layout(push_constant) uniform Push { uint seed; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint o = i * 4u;
   uint big[4160];
   uint step = (in_data[o] % 7u) + 1u;
   /* A bound the compiler cannot know keeps lavapipe's LLVM from unrolling
    * over the whole array (which takes it seconds); it is 4160 or 4224. */
   uint limit = 4160u + (in_data[o + 3u] & 1u) * 64u;
   for (uint k = 0u; k < limit && k < 4160u; k += 64u)
      big[k] = k * step + i;
   big[4159u] = step;
   uint a = (in_data[o + 1u] % 65u) * 64u, b = (in_data[o + 2u] % 65u) * 64u;
   big[a] += 7u;
   uint s = 0u;
   for (uint k = 0u; k < limit && k < 4160u; k += 64u)
      s += big[(k + b) % 4160u];
   out_data[o + 0u] = big[a];
   out_data[o + 1u] = big[b];
   out_data[o + 2u] = s;
   out_data[o + 3u] = big[4159u];
}
