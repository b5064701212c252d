#version 450
// Multisampled images are not supported by the compiler: must be a clean
// error naming them.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform sampler2DMS img;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() { o[gl_GlobalInvocationID.x] = texelFetch(img, ivec2(gl_GlobalInvocationID.xy), 1); }
