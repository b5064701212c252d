#version 450
// textureLod, textureGrad, textureLodOffset and textureGather of a combined
// sampler2D, and textureLod through a separate texture2D + sampler.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer In { vec4 coords[64]; }; // u, v, lod, gradient
layout(set = 0, binding = 2) buffer Out {
   vec4 lod_result[64];
   vec4 grad_result[64];
   vec4 offset_result[64];
   vec4 gather_result[64];
   vec4 separate_result[64];
};
layout(set = 0, binding = 3) uniform texture2D separate_image;
layout(set = 0, binding = 4) uniform sampler separate_sampler;

void main() {
   uint i = gl_GlobalInvocationID.x;
   vec4 c = coords[i];
   lod_result[i] = textureLod(tex, c.xy, c.z);
   grad_result[i] = textureGrad(tex, c.xy, vec2(c.w, 0.0), vec2(0.0, c.w));
   offset_result[i] = textureLodOffset(tex, c.xy, 0.0, ivec2(1, -1));
   gather_result[i] = textureGather(tex, c.xy, 1);
   separate_result[i] = textureLod(sampler2D(separate_image, separate_sampler), c.xy, c.z);
}
