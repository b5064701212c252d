#version 450
// uaddCarry / usubBorrow (OpIAddCarry, OpISubBorrow) on scalars and vectors.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a[]; } inp;
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint x = inp.a[2u * i], y = inp.a[2u * i + 1u];
   uint c, b;
   o[i * 6u + 0u] = uaddCarry(x, y, c);
   o[i * 6u + 1u] = c;
   o[i * 6u + 2u] = usubBorrow(x, y, b);
   o[i * 6u + 3u] = b;
   uvec2 cv;
   uvec2 s = uaddCarry(uvec2(x, y), uvec2(y, 0xffffffffu), cv);
   o[i * 6u + 4u] = s.x ^ s.y;
   o[i * 6u + 5u] = cv.x | (cv.y << 1u);
}
