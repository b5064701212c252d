#version 450
// Multisampled storage images are not supported (shaderStorageImageMultisample
// is not offered): must be a clean error naming the capability.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2DMS img;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() { o[gl_GlobalInvocationID.x] = imageLoad(img, ivec2(gl_GlobalInvocationID.xy), 1); }
