#version 450
// A block compressor's output path (BLOCK_TEXEL_VIEW_COMPATIBLE): every
// texel of an rgba32ui view of one level and layer of a BC2 image is one
// 16-byte block, written with imageStore; then the size the view reports.
// Each block is opaque (alpha nibbles 0xf), with two 565 endpoints and
// 2-bit indices 0 or 1 only (exact colours) made from (x, y, layer) as
// test_image_compatibility.c computes them. The blocks wide and high and
// the layer come in push constants.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32ui) uniform writeonly uimage2D blocks;
layout(set = 0, binding = 1) writeonly buffer Sizes { ivec2 size; };
layout(push_constant) uniform Params { uint w, h, layer; } p;

void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   uint z = p.layer;
   if (id.x < p.w && id.y < p.h) {
      uint c0 = (id.x * 7u + z * 11u) & 31u | ((id.y * 9u) & 63u) << 5 | 31u << 11;
      uint c1 = (id.y * 3u) & 31u | ((id.x * 5u + z) & 63u) << 5 | 3u << 11;
      uint indices = (0x5a3cu * (id.x + 1u) ^ 0x9d2u * (id.y + 3u) ^ z * 0x7777u) & 0xffffu;
      // Spread 16 bits to 16 2-bit indices of value 0 or 1.
      uint spread = 0u;
      for (uint b = 0u; b < 16u; b++)
         spread |= ((indices >> b) & 1u) << (2u * b);
      imageStore(blocks, ivec2(id), uvec4(0xffffffffu, 0xffffffffu, c0 | c1 << 16, spread));
   }
   if (id == uvec2(0u))
      size = imageSize(blocks);
}
