#version 460
// vec/ivec/uvec/bvec of 2-4 components, swizzles, shuffles and vector compares.
layout(local_size_x = 32, local_size_y = 2) in;
layout(std430, binding = 0) buffer Data { vec4 v4[]; } data;
layout(std430, binding = 1) buffer IData { ivec3 iv3; uvec2 uv2; ivec4 iv4; } idata;
void main() {
   vec4 a = data.v4[gl_LocalInvocationIndex];
   vec3 b = a.zyx * 2.0;
   vec2 c = b.xy + a.ww;
   bvec3 m = greaterThan(b, vec3(1.0));
   ivec3 i = ivec3(b) + idata.iv3;
   uvec2 u = uvec2(c) * idata.uv2;
   idata.iv4 = ivec4(i, int(u.x));
   data.v4[gl_LocalInvocationIndex] = any(m) ? vec4(c, b.z, 1.0) : a.wzyx;
}
