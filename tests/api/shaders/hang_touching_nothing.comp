#version 450
// Like fault_endless_loop.comp, but the grid reads and writes no memory (no
// descriptors, no stores): given keep_going 1 it never ends, given 0 it ends
// at once. test_hung_device.c destroys every object while the grid may still
// run, so that only vkDestroyDevice can stop it, not a fault on freed memory.
layout(local_size_x = 64) in;
layout(push_constant) uniform PushConstants {
   uint keep_going;
} pc;
void main()
{
   while (pc.keep_going != 0u) {
   }
}
