#version 450
// Integer vectors: per-component shifts, compares to bvec, conversions to float vectors.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) readonly buffer In { uvec4 a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   uvec4 x = a[i], s = uvec4(1u, 3u, 7u, 31u);
   o[i * 4u] = (x << s) | (x >> (32u - s));
   bvec4 gt = greaterThan(x, uvec4(0x80000000u));
   o[i * 4u + 1u] = uvec4(gt) * 5u + uvec4(not(gt));
   ivec4 sx = ivec4(x);
   o[i * 4u + 2u] = uvec4(sx / ivec4(3, -3, 7, -7));
   o[i * 4u + 3u] = floatBitsToUint(vec4(x >> 8u) * 0.5);
}
