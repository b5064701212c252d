#version 450
// shaderInt16: 16-bit integer arithmetic in registers (wrapping at 16 bits),
// converted to 32 bits for the buffers (16-bit storage is another feature).
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In {
   uint v[];
} src;
layout(set = 0, binding = 1) buffer Out {
   uint v[];
} dst;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint16_t u = uint16_t(src.v[i]);
   int16_t s = int16_t(src.v[i] >> 16);
   uint16_t prod = u * uint16_t(40503) + uint16_t(i);
   int16_t shifted = s >> int16_t(3);
   dst.v[3 * i + 0] = uint(prod);
   dst.v[3 * i + 1] = uint(int(shifted));
   dst.v[3 * i + 2] = uint(int(s - int16_t(u & uint16_t(0xFF))));
}
