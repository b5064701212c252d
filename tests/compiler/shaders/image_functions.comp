#version 450
// Images and samplers passed to functions (glslang passes them as
// UniformConstant pointers), one of them a storage image without a format.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform writeonly uimage2D counters;
layout(set = 0, binding = 2) buffer Out { vec4 sampled[64]; };

vec4 sample_center(sampler2D s, float lod) { return textureLod(s, vec2(0.5), lod); }

void mark(writeonly uimage2D image, ivec2 p, uint value) { imageStore(image, p, uvec4(value)); }

void main() {
   uint i = gl_GlobalInvocationID.x;
   sampled[i] = sample_center(tex, float(i % 2u));
   mark(counters, ivec2(int(i % 2u), 0), 7u + i % 2u);
}
