/* A render target as the ROP sees it (beam-tracing seed: the ROP in each
 * memory partition, with CROP and ZROP, "coupled to the L2 cache"): an
 * image of one of the texel formats of ppu/texture.h, linear or
 * block-linear exactly as images are (ppu_tex_byte_offset), 1 or 4 samples
 * per pixel.
 *
 * A 4x target is stored as an image of twice the width and height: sample
 * s of pixel (x, y) is texel (2x + (s & 1), 2y + (s >> 1)), so a pixel's
 * samples share a GOB row pair and the texture unit can fetch them with
 * the same layout functions.
 *
 * The ROP works on host memory here: the graphics engine maps the target
 * through the MMU (the copy engine's runs) before handing it over, as one
 * host range (base) or, for a target scattered over VRAM, as the host
 * address of each of its 4 KiB pages (pages). What the
 * ROP knows of a format it learns from the texel codec, never from its own
 * packing code: the bits each component occupies (for write masks), and
 * whether it is UNORM, SNORM, float or integer (for blend clamping and
 * logic ops), are found by encoding probe values.
 */
#ifndef PPU_ROP_SURFACE_H
#define PPU_ROP_SURFACE_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/mmu_format.h"
#include "ppu/texture.h"
#include "texture/texel_codec.h"

#define ROP_MAX_TEXEL_BYTES 16u

/* How the CROP treats a format's values. */
enum rop_numeric_kind {
   ROP_KIND_UNORM, /* also sRGB (values in linear space) */
   ROP_KIND_SNORM,
   ROP_KIND_FLOAT,
   ROP_KIND_UINT,
   ROP_KIND_SINT,
};

struct rop_surface {
   uint8_t *base;         /* host view of the target's memory, when contiguous */
   uint8_t *const *pages; /* else: host address of each page the target's VA touches */
   uint32_t page_offset;  /* the target's VA within its first page (with pages) */
   enum ppu_tex_format format;
   uint32_t width, height;          /* pixels */
   unsigned samples_log2;           /* 0 or 2 */
   uint32_t bytes;                  /* per sample */
   struct ppu_texture_header image; /* the layout, in samples */
   enum rop_numeric_kind kind;
   bool srgb;
   bool has_depth, has_stencil;
   /* Bits of each component within the texel (colors: R G B A). */
   uint8_t component_bits[4][ROP_MAX_TEXEL_BYTES];
};

/* False when the format cannot be a render target (INVALID, compressed,
 * shared-exponent) or the shape is out of range. */
bool rop_surface_init(struct rop_surface *s, uint8_t *base, enum ppu_tex_format format,
                      enum ppu_tex_layout layout, unsigned block_height_log2, uint32_t row_pitch,
                      uint32_t width, uint32_t height, unsigned samples_log2);

/* Bytes the target occupies (from base). */
uint64_t rop_surface_size(const struct rop_surface *s);

static inline uint8_t *rop_surface_sample(const struct rop_surface *s, uint32_t x, uint32_t y,
                                          unsigned sample)
{
   uint32_t sx = s->samples_log2 ? 2 * x + (sample & 1u) : x;
   uint32_t sy = s->samples_log2 ? 2 * y + (sample >> 1) : y;
   uint64_t offset = ppu_tex_byte_offset(&s->image, 0, 0, sx * s->bytes, sy, 0);
   if (!s->pages)
      return s->base + offset;
   /* A texel never straddles a page: the engine uses pages only for
    * texel sizes that divide the page and texel-aligned targets. */
   offset += s->page_offset;
   return s->pages[offset >> PPU_PAGE_SHIFT] + (offset & PPU_PAGE_MASK);
}

/* Merges `src` into `dst` where `mask` bits are set. */
static inline void rop_merge_bits(uint8_t *dst, const uint8_t *src, const uint8_t *mask,
                                  uint32_t bytes)
{
   for (uint32_t i = 0; i < bytes; i++)
      dst[i] = (uint8_t)((dst[i] & ~mask[i]) | (src[i] & mask[i]));
}

#endif
