/* Encoders for the methods of ppu/methods.h: each function appends one
 * complete operation (state methods plus the launch/execute method) to a
 * pushbuffer. Everything that writes method words goes through here, so the
 * word layout of an operation is spelled out in one place.
 *
 * All functions silently do nothing once the pushbuffer has failed to grow
 * (pb->error is then set and reported by whoever ends the recording). */
#ifndef DRV_METHOD_ENCODER_H
#define DRV_METHOD_ENCODER_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/methods.h"
#include "pushbuffer.h"

static inline uint32_t drv_lo32(uint64_t v)
{
   return (uint32_t)v;
}

static inline uint32_t drv_hi32(uint64_t v)
{
   return (uint32_t)(v >> 32);
}

/* Host semaphore operation: SEM_ADDR_LO..SEM_EXECUTE are consecutive, so one
 * incrementing method of 5 words latches address and payload and executes. */
static inline void drv_emit_semaphore(struct drv_pushbuf *pb, enum ppu_sem_operation op,
                                      uint64_t va, uint64_t payload, bool awaken)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 6);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_HOST, PPU_HOST_SEM_ADDR_LO, 5);
   p[1] = drv_lo32(va);
   p[2] = drv_hi32(va);
   p[3] = drv_lo32(payload);
   p[4] = drv_hi32(payload);
   p[5] = (uint32_t)op | (awaken ? PPU_SEM_FLAG_AWAKEN : 0u);
   drv_pushbuf_commit(pb, p + 6);
}

static inline void drv_emit_sem_acquire_geq(struct drv_pushbuf *pb, uint64_t va, uint64_t value)
{
   drv_emit_semaphore(pb, PPU_SEM_OP_ACQUIRE_GEQ, va, value, false);
}

static inline void drv_emit_sem_release(struct drv_pushbuf *pb, uint64_t va, uint64_t value,
                                        bool awaken)
{
   drv_emit_semaphore(pb, PPU_SEM_OP_RELEASE, va, value, awaken);
}

static inline void drv_emit_timestamp(struct drv_pushbuf *pb, uint64_t va)
{
   drv_emit_semaphore(pb, PPU_SEM_OP_TIMESTAMP, va, 0, false);
}

static inline void drv_emit_wait_for_idle(struct drv_pushbuf *pb)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 1);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_HOST, PPU_HOST_WAIT_FOR_IDLE, 0);
   drv_pushbuf_commit(pb, p + 1);
}

/* Every hardware counter written at va (ppu/counter_snapshot.h) once the
 * channel's earlier work is done: ADDR_LO, ADDR_HI and COUNTER_SNAPSHOT are
 * consecutive, so one incrementing method of 3 words does it. */
static inline void drv_emit_counter_snapshot(struct drv_pushbuf *pb, uint64_t va)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 4);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_HOST, PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO, 3);
   p[1] = drv_lo32(va);
   p[2] = drv_hi32(va);
   p[3] = 0;
   drv_pushbuf_commit(pb, p + 4);
}

/* Copy engine: SRC, DST and LENGTH (six consecutive words) then LAUNCH. */
static inline void drv_emit_copy(struct drv_pushbuf *pb, uint64_t dst, uint64_t src, uint64_t bytes)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 8);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, 6);
   p[1] = drv_lo32(src);
   p[2] = drv_hi32(src);
   p[3] = drv_lo32(dst);
   p[4] = drv_hi32(dst);
   p[5] = drv_lo32(bytes);
   p[6] = drv_hi32(bytes);
   p[7] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_COPY);
   drv_pushbuf_commit(pb, p + 8);
}

/* DST, LENGTH and FILL_PATTERN are consecutive (0x002..0x006). */
static inline void drv_emit_fill(struct drv_pushbuf *pb, uint64_t dst, uint64_t bytes,
                                 uint32_t pattern)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 7);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, 5);
   p[1] = drv_lo32(dst);
   p[2] = drv_hi32(dst);
   p[3] = drv_lo32(bytes);
   p[4] = drv_hi32(bytes);
   p[5] = pattern;
   p[6] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_FILL);
   drv_pushbuf_commit(pb, p + 7);
}

/* Writes `bytes` (a multiple of 4) of data at dst through the copy engine's
 * INLINE operation. The data words follow as INLINE_DATA methods of at most
 * PPU_MTHD_COUNT_MAX words each, split wherever a chunk ends. */
void drv_emit_inline_data(struct drv_pushbuf *pb, uint64_t dst, const void *data, uint64_t bytes);

/* QUERY_COPY of `count` records from src (stride 16) to dst. */
void drv_emit_query_copy(struct drv_pushbuf *pb, uint64_t dst, uint64_t dst_stride, uint64_t src,
                         uint32_t count, uint32_t query_flags);

/* Appends raw words verbatim as their own segment(s) (docs/raw-methods.md). */
void drv_emit_raw_words(struct drv_pushbuf *pb, const uint32_t *words, uint32_t count);

#endif
