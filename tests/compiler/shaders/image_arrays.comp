#version 450
// Descriptor arrays indexed per invocation (nonuniformEXT): combined
// samplers, separate images with one sampler, and storage images.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D combined[4];
layout(set = 0, binding = 1) uniform texture2D images[4];
layout(set = 0, binding = 2) uniform sampler point_sampler;
layout(set = 0, binding = 3, r32ui) uniform uimage2D counters[4];
layout(set = 0, binding = 4) buffer Out { vec4 sampled[64]; vec4 fetched[64]; };

void main() {
   uint i = gl_GlobalInvocationID.x;
   uint k = (i * 7u) % 4u;
   sampled[i] = textureLod(combined[nonuniformEXT(k)], vec2(0.5), 0.0);
   fetched[i] = texelFetch(sampler2D(images[nonuniformEXT(3u - k)], point_sampler), ivec2(0), 0);
   imageAtomicAdd(counters[nonuniformEXT(k)], ivec2(0), 1u);
}
