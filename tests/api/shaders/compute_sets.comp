#version 450
// Several sets, uniform and storage buffers, and dynamic variants of both:
// y[i] = x[i] * scale + bias, with Out and Bias bound with dynamic offsets.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform Scale {
   uint scale;
} s;
layout(set = 0, binding = 1) readonly buffer In {
   uint x[];
} inp;
layout(set = 1, binding = 0) buffer Out {
   uint y[];
} outp;
layout(set = 1, binding = 2) uniform Bias {
   uint bias;
} b;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   outp.y[i] = inp.x[i] * s.scale + b.bias;
}
