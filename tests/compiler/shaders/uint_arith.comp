#version 450
// Unsigned arithmetic, shifts and comparisons.
layout(local_size_x = 32, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a[]; } inp;
void main() {
   uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * 64u;
   uint x = inp.a[2u * i], y = inp.a[2u * i + 1u];
   o[i * 6u + 0u] = y != 0u ? x / y : 7u;
   o[i * 6u + 1u] = y != 0u ? x % y : 9u;
   o[i * 6u + 2u] = x >> (y & 31u);
   o[i * 6u + 3u] = uint(x < y) + 2u * uint(x <= y) + 4u * uint(x > y) + 8u * uint(x >= y) +
                    16u * uint(x == y) + 32u * uint(x != y);
   o[i * 6u + 4u] = min(x, y) + max(x, y) * 3u;
   o[i * 6u + 5u] = clamp(x, 100u, 100000u);
}
