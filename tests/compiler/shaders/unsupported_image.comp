#version 450
// Storage images are not supported by the compiler yet: must be a clean error.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D img;
void main() {
   imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(1.0));
}
