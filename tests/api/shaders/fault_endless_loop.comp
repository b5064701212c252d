#version 450
// Loops while a push constant is non-zero: the shader cannot change it, so
// given 1 it never ends and only the watchdog stops it.
layout(local_size_x = 64) in;
layout(push_constant) uniform PushConstants {
   uint keep_going;
} pc;
layout(set = 0, binding = 0) buffer Out {
   uint v[];
} o;
void main()
{
   uint n = 0u;
   while (pc.keep_going != 0u)
      n++;
   o.v[gl_GlobalInvocationID.x] = n;
}
