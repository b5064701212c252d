#version 450
// Implicit level of detail with derivative groups of four consecutive
// LocalInvocationIndex values: lane 1 of a quad is +x, lane 2 is +y;
// texture() and textureProj().
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 64) in;
layout(derivative_group_linearNV) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 implicit_lod[64]; vec4 projected[64]; };
layout(push_constant) uniform P { float scale; };

void main() {
   uint i = gl_LocalInvocationIndex;
   vec2 uv = (vec2(float(i & 1u), float((i >> 1) & 1u)) + 0.5) * scale + vec2(float(i >> 2) * 0.01);
   implicit_lod[i] = texture(tex, uv);
   projected[i] = textureProj(tex, vec3(uv * 2.0, 2.0));
}
