#version 450
// Implicit level of detail in a compute shader with 2x2 derivative groups
// of LocalInvocationId (GL_NV_compute_shader_derivatives): texture() and
// texture() with a bias. Each level of the texture holds its level number.
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(derivative_group_quadsNV) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 implicit_lod[64]; vec4 biased[64]; uvec4 ids[64]; };
layout(push_constant) uniform P { float scale; };

void main() {
   vec2 uv = (vec2(gl_LocalInvocationID.xy) + 0.5) * scale;
   uint i = gl_LocalInvocationIndex;
   implicit_lod[i] = texture(tex, uv);
   biased[i] = texture(tex, uv, 1.0);
   ids[i] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
}
