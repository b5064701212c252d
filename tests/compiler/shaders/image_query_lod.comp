#version 450
// OpImageQueryLod is not implemented: must be a clean error naming it.
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 8) in;
layout(derivative_group_linearNV) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() { o[gl_GlobalInvocationID.x] = vec4(textureQueryLod(tex, vec2(0.5)), 0.0, 0.0); }
