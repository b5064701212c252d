/* Encoder of the copy engine's image operations (ppu/methods.h:
 * BUFFER_TO_IMAGE, IMAGE_TO_BUFFER, IMAGE_TO_IMAGE, CLEAR_IMAGE, BLIT),
 * beside method_encoder.h's buffer operations. The engine latches its
 * state per channel and other commands change it, so every launch writes
 * every state word it reads: SRC/DST, the 26 image words (one INCR header)
 * and, for BLIT, the 13 corner and filter words. */
#ifndef DRV_METHOD_ENCODER_IMAGE_H
#define DRV_METHOD_ENCODER_IMAGE_H

#include <stdint.h>

#include "method_encoder.h"

/* The state of one image operation, in method order. */
struct drv_image_op {
   uint64_t src_va, dst_va; /* buffer sides */
   uint64_t src_header, dst_header;
   uint32_t buffer_row_length, buffer_image_height;
   uint32_t src_level, src_layer, dst_level, dst_layer, layer_count, level_count;
   uint32_t src_offset[3], dst_offset[3], extent[3];
   uint32_t aspect;
   uint32_t clear_value[4];
   int32_t blit_src[2][3], blit_dst[2][3]; /* BLIT corners */
   uint32_t blit_filter;
};

#define DRV_IMAGE_OP_WORDS (PPU_COPY_CLEAR_VALUE_3 - PPU_COPY_SRC_HEADER_LO + 1)
#define DRV_BLIT_WORDS (PPU_COPY_FILTER - PPU_COPY_SRC_X0 + 1)

static inline void drv_emit_image_op(struct drv_pushbuf *pb, const struct drv_image_op *op,
                                     enum ppu_copy_operation launch)
{
   bool blit = launch == PPU_COPY_OP_BLIT;
   uint32_t words = 5 + 1 + DRV_IMAGE_OP_WORDS + (blit ? 1 + DRV_BLIT_WORDS : 0) + 1;
   uint32_t *p = drv_pushbuf_reserve(pb, words);
   if (!p)
      return;
   uint32_t *w = p;
   *w++ = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, 4);
   *w++ = drv_lo32(op->src_va);
   *w++ = drv_hi32(op->src_va);
   *w++ = drv_lo32(op->dst_va);
   *w++ = drv_hi32(op->dst_va);
   *w++ = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_HEADER_LO, DRV_IMAGE_OP_WORDS);
   const uint32_t image[DRV_IMAGE_OP_WORDS] = {drv_lo32(op->src_header),
                                               drv_hi32(op->src_header),
                                               drv_lo32(op->dst_header),
                                               drv_hi32(op->dst_header),
                                               op->buffer_row_length,
                                               op->buffer_image_height,
                                               op->src_level,
                                               op->src_layer,
                                               op->dst_level,
                                               op->dst_layer,
                                               op->layer_count,
                                               op->level_count,
                                               op->src_offset[0],
                                               op->src_offset[1],
                                               op->src_offset[2],
                                               op->dst_offset[0],
                                               op->dst_offset[1],
                                               op->dst_offset[2],
                                               op->extent[0],
                                               op->extent[1],
                                               op->extent[2],
                                               op->aspect,
                                               op->clear_value[0],
                                               op->clear_value[1],
                                               op->clear_value[2],
                                               op->clear_value[3]};
   for (unsigned i = 0; i < DRV_IMAGE_OP_WORDS; i++)
      *w++ = image[i];
   if (blit) {
      *w++ = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_X0, DRV_BLIT_WORDS);
      for (unsigned c = 0; c < 2; c++)
         for (unsigned a = 0; a < 3; a++)
            *w++ = (uint32_t)op->blit_src[c][a];
      for (unsigned c = 0; c < 2; c++)
         for (unsigned a = 0; a < 3; a++)
            *w++ = (uint32_t)op->blit_dst[c][a];
      *w++ = op->blit_filter;
   }
   *w++ = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, (uint32_t)launch);
   drv_pushbuf_commit(pb, w);
}

#endif /* DRV_METHOD_ENCODER_IMAGE_H */
