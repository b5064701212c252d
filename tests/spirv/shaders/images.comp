#version 460
// Storage images, sampled images and texel buffers.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba8) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
layout(binding = 2) uniform sampler2D tex;
layout(binding = 3) uniform samplerBuffer texels;
layout(binding = 4, r32ui) uniform uimage3D volume;
void main() {
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   vec4 c = imageLoad(src, p) + textureLod(tex, vec2(p) / 64.0, 0.0) + texelFetch(texels, p.x);
   imageAtomicAdd(volume, ivec3(p, 0), 1u);
   imageStore(dst, p, vec4(c.x + float(imageSize(src).x)));
}
