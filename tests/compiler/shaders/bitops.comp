#version 450
// Bitfield operations and bit counting.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint x = inp.a[i];
   int off = int(i % 20u), bits = int(i % 12u);
   o[i * 7u + 0u] = bitfieldExtract(x, off, bits);
   o[i * 7u + 1u] = uint(bitfieldExtract(int(x), off, bits));
   o[i * 7u + 2u] = bitfieldInsert(x, i * 0x1234567u, off, bits);
   o[i * 7u + 3u] = bitfieldReverse(x);
   o[i * 7u + 4u] = uint(bitCount(x));
   o[i * 7u + 5u] = uint(findLSB(x));
   o[i * 7u + 6u] = uint(findMSB(x)) + 1000u * uint(findMSB(int(x)));
}
