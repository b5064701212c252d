/* Graphics-subchannel words that draws (cmd_draw.c) and resolves
 * (cmd_resolve.c) both write: one incrementing method group, and a
 * render-target group (8 words, docs/graphics-hw.md "Render-target group")
 * for one level and layer of an image. */
#include "method_encoder.h"
#include "vkppu_graphics.h"

void vkppu_gfx_emit(struct drv_pushbuf *pb, uint32_t method, uint32_t count, const uint32_t *words)
{
   uint32_t *p = drv_pushbuf_reserve(pb, count + 1);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, method, count);
   memcpy(p + 1, words, (size_t)count * 4);
   drv_pushbuf_commit(pb, p + 1 + count);
}

void vkppu_gfx_target_words(const struct vkppu_image *img, VkFormat format, uint32_t level,
                            uint32_t layer, uint32_t w[8])
{
   const struct ppu_texture_header *h = &img->whole;
   uint64_t addr = h->address + ppu_tex_level_offset(h, level);
   /* EXTENT is in pixels; a 4x image's texels are 2x2 per pixel. */
   const uint32_t k = vkppu_image_sample_scale(img);
   w[0] = drv_lo32(addr);
   w[1] = drv_hi32(addr);
   w[2] = vkppu_format_info(format)->hw;
   w[3] = h->layout | ppu_tex_level_block_height_log2(h, level) << 8;
   w[4] = h->row_pitch;
   w[5] = ppu_tex_level_extent(h->width, level) / k | (ppu_tex_level_extent(h->height, level) / k)
                                                          << 16;
   /* A 3D image is rendered a slice per layer (2D array views of it): its
    * slices follow one another inside the level (ppu/texture.h), each a
    * whole grid of blocks, so the stride is a slice's bytes. */
   uint64_t stride = h->layer_stride;
   if (h->dim == PPU_TEX_DIM_3D)
      stride = ppu_tex_level_size(h, level) / ppu_tex_level_extent(h->depth, level);
   w[6] = (uint32_t)(stride >> 9);
   w[7] = layer;
}
