/* See method_encoder.h: the encoders too long to inline. */
#include "method_encoder.h"

#include <string.h>

void drv_emit_inline_data(struct drv_pushbuf *pb, uint64_t dst, const void *data, uint64_t bytes)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 6);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, 4);
   p[1] = drv_lo32(dst);
   p[2] = drv_hi32(dst);
   p[3] = drv_lo32(bytes);
   p[4] = drv_hi32(bytes);
   p[5] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_INLINE);
   drv_pushbuf_commit(pb, p + 6);

   const uint8_t *src = data;
   uint64_t words_left = bytes / 4u;
   while (words_left) {
      /* Use what is left of this chunk when it holds a useful piece;
       * otherwise start the next chunk. */
      uint32_t n = drv_pushbuf_space(pb);
      n = n > 1 ? n - 1 : 0;
      if (n < 64 && n < words_left)
         n = PPU_MTHD_COUNT_MAX;
      if (n > PPU_MTHD_COUNT_MAX)
         n = PPU_MTHD_COUNT_MAX;
      if (n > words_left)
         n = (uint32_t)words_left;
      p = drv_pushbuf_reserve(pb, n + 1);
      if (!p)
         return;
      p[0] = PPU_MTHD_HDR(PPU_MTHD_NONINCR, PPU_SUBCH_COPY, PPU_COPY_INLINE_DATA, n);
      memcpy(p + 1, src, (size_t)n * 4u);
      drv_pushbuf_commit(pb, p + 1 + n);
      src += (size_t)n * 4u;
      words_left -= n;
   }
}

void drv_emit_query_copy(struct drv_pushbuf *pb, uint64_t dst, uint64_t dst_stride, uint64_t src,
                         uint32_t count, uint32_t query_flags)
{
   /* DST_STRIDE is one 32-bit word; a wider stride is legal in Vulkan, so
    * such copies go one query at a time. */
   uint32_t per_launch = dst_stride > UINT32_MAX ? 1u : count;
   for (uint32_t done = 0; done < count; done += per_launch) {
      uint32_t *p = drv_pushbuf_reserve(pb, 10);
      if (!p)
         return;
      uint64_t s = src + (uint64_t)done * sizeof(struct ppu_query_record);
      uint64_t d = dst + (uint64_t)done * dst_stride;
      p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, 4);
      p[1] = drv_lo32(s);
      p[2] = drv_hi32(s);
      p[3] = drv_lo32(d);
      p[4] = drv_hi32(d);
      p[5] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_DST_STRIDE, 3);
      p[6] = per_launch == 1 ? 0u : (uint32_t)dst_stride;
      p[7] = per_launch;
      p[8] = query_flags;
      p[9] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_QUERY_COPY);
      drv_pushbuf_commit(pb, p + 10);
   }
}

void drv_emit_raw_words(struct drv_pushbuf *pb, const uint32_t *words, uint32_t count)
{
   drv_pushbuf_close_segment(pb);
   while (count) {
      /* One segment when the words fit in a chunk; longer streams are cut
       * into chunk-sized segments, wherever that falls. */
      uint32_t n = count < DRV_PB_LARGE_CHUNK_WORDS ? count : DRV_PB_LARGE_CHUNK_WORDS;
      uint32_t *p = drv_pushbuf_reserve(pb, n);
      if (!p)
         return;
      memcpy(p, words, (size_t)n * 4u);
      drv_pushbuf_commit(pb, p + n);
      drv_pushbuf_close_segment(pb);
      words += n;
      count -= n;
   }
}
