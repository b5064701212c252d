#version 450
// The MinLod image operand (and its capability) is not supported: a clean
// error naming the capability.
#extension GL_ARB_sparse_texture_clamp : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() { o[gl_GlobalInvocationID.x] = textureGradClampARB(tex, vec2(0.5), vec2(0), vec2(0), 1.0); }
