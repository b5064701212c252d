#version 450
// imageLoad / imageStore round trip (declared format and no format), the
// image atomics from many invocations, and imageSize.
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counters;
layout(set = 0, binding = 3, r32i) uniform iimage2D signed_counters;
layout(set = 0, binding = 4, r32f) uniform image2D float_image;
layout(set = 0, binding = 5) uniform image2D unformatted;
layout(set = 0, binding = 6) buffer Out { ivec4 sizes; uint cas_winners; uint exchanged[256]; };

void main() {
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   uint i = uint(p.y * 16 + p.x);
   imageStore(dst, p, imageLoad(src, p) * 2.0 + 1.0);
   imageStore(unformatted, p, imageLoad(unformatted, p).wzyx);
   imageAtomicAdd(counters, ivec2(0, 0), 1u);
   imageAtomicAdd(counters, ivec2(1, 0), uint(p.x + p.y));
   imageAtomicMax(counters, ivec2(2, 0), uint(p.x * 100 + p.y));
   imageAtomicMin(counters, ivec2(3, 0), uint(p.x * 100 + p.y + 7));
   imageAtomicOr(counters, ivec2(0, 1), 1u << p.x);
   imageAtomicAnd(counters, ivec2(1, 1), ~(1u << p.y));
   if (p.y == 0)
      imageAtomicXor(counters, ivec2(2, 1), 1u << p.x);
   if (imageAtomicCompSwap(counters, ivec2(3, 1), 0u, i + 1u) == 0u)
      atomicAdd(cas_winners, 1u);
   exchanged[i] = imageAtomicExchange(counters, ivec2(0, 2), i + 1u);
   imageAtomicMin(signed_counters, ivec2(0, 0), -(p.x * 100 + p.y));
   imageAtomicMax(signed_counters, ivec2(1, 0), p.x - 50);
   imageAtomicExchange(float_image, ivec2(0, 0), float(i));
   if (i == 0u)
      sizes = ivec4(imageSize(dst), imageSize(counters));
}
