#version 450
// pack/unpack of unorm, snorm and half formats.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { vec4 a[]; };
void main() {
   uint i = gl_GlobalInvocationID.x;
   vec4 v = a[i];
   uint b = i * 9u;
   o[b + 0u] = packUnorm4x8(v);
   o[b + 1u] = packSnorm4x8(v);
   o[b + 2u] = packUnorm2x16(v.xy);
   o[b + 3u] = packSnorm2x16(v.zw);
   o[b + 4u] = packHalf2x16(v.xz);
   vec4 u = unpackUnorm4x8(i * 0x01020304u + 0x80u);
   o[b + 5u] = floatBitsToUint(u.x + u.y * 2.0 + u.z * 4.0 + u.w * 8.0);
   vec4 s = unpackSnorm4x8(i * 0x0a0b0c0du);
   o[b + 6u] = floatBitsToUint(s.x + s.y * 2.0 + s.z * 4.0 + s.w * 8.0);
   vec2 h = unpackHalf2x16(packHalf2x16(v.yw));
   o[b + 7u] = floatBitsToUint(h.x);
   o[b + 8u] = floatBitsToUint(h.y);
}
