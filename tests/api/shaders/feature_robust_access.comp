#version 450
// robustBufferAccess: 256 invocations read and write buffers of 128 words.
// Reads past the end give 0 (what vkppu and lavapipe both return; the spec
// would also allow values from inside the buffer), writes past the end must
// not reach any other memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src {
   uint v[];
} src;
layout(set = 0, binding = 1) buffer Dst {
   uint v[];
} dst;
layout(set = 0, binding = 2) buffer Seen {
   uint v[];
} seen;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   seen.v[i] = src.v[i];
   dst.v[i] = i + 1u;
}
