#version 450
// robustBufferAccess2: 256 invocations against descriptors narrower than
// their buffers. Reads past a descriptor's range give 0 even where the
// buffer goes on; writes and atomics past it change nothing.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src {
   uint v[];
} src;
layout(set = 0, binding = 1) uniform Ubo {
   uvec4 v[16];
} ubo;
layout(set = 0, binding = 2) buffer Dst {
   uint v[];
} dst;
layout(set = 0, binding = 3) buffer Counters {
   uint v[];
} counters;
layout(set = 0, binding = 4) buffer Seen {
   uvec4 v[];
} seen;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint old = atomicAdd(counters.v[i % 32u], 1u);
   seen.v[i] = uvec4(src.v[i], ubo.v[i % 16u].x, old, 7u);
   dst.v[i] = i + 1u;
}
