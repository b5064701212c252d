#version 460
// Extended instructions from GLSL.std.450.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { vec4 v[]; } b;
void main() {
   vec4 x = b.v[gl_GlobalInvocationID.x];
   vec4 r = sin(x) + cos(x) * exp(x) - log2(abs(x) + 1.0);
   r += clamp(x, 0.0, 1.0) + mix(x, r, 0.5) + fma(x, r, x) + smoothstep(0.0, 1.0, x);
   r.xyz += cross(x.xyz, r.xyz) + normalize(x.xyz) + reflect(x.xyz, r.xyz);
   r.w += length(x) + distance(x, r) + pow(abs(x.w), 2.2) + inversesqrt(abs(x.x) + 1.0);
   uint packed = packHalf2x16(r.xy);
   b.v[gl_GlobalInvocationID.x] = r + vec4(unpackUnorm4x8(packed)) + vec4(findMSB(int(packed)));
}
