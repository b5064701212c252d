#version 450
// Compiled for Vulkan 1.1, which includes VK_KHR_relaxed_block_layout: a
// vector may sit at any offset that is a multiple of its component size, as
// long as it does not straddle a 16-byte boundary. `v` at offset 4 and `w` at
// 20 are such vectors (std430 would put them at 16 and 32). The shader reads
// them and writes them, moved by one component, to the same offsets.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
layout(scalar, set = 0, binding = 0) buffer Relaxed {
   uint a;  // offset 0
   uvec3 v; // offset 4
   uint b;  // offset 16
   uvec2 w; // offset 20
} io;
void main()
{
   uint a = io.a, b = io.b;
   uvec3 v = io.v;
   uvec2 w = io.w;
   io.a = v.x;
   io.v = uvec3(v.y, v.z, b);
   io.b = w.x;
   io.w = uvec2(w.y, a);
}
