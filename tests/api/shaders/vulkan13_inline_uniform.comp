#version 450
// Two inline uniform blocks (their data lives in the descriptor set) read
// like uniform buffers; the sums go to a storage buffer.
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform First { uvec4 a; uvec4 b; } first;
layout(std140, set = 0, binding = 1) uniform Second { uvec4 c; } second;
layout(std430, set = 0, binding = 2) buffer Out { uint w[]; } o;
void main()
{
   uint i = gl_LocalInvocationIndex;
   o.w[i] = first.a[i] + first.b[i] * 100u + second.c[i] * 10000u;
}
