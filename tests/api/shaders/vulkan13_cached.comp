#version 450
// A program to put in a pipeline cache and create again from it.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer IO { uint w[]; } io;
void main()
{
   uint i = gl_LocalInvocationIndex;
   io.w[i] = (i * 2654435761u) ^ 0x5a5au;
}
