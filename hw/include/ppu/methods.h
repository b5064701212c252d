/* The PPU's method interface: the pushbuffer word format, the GPFIFO entry
 * format and every method the host interface and the engines decode.
 *
 * This header is the contract between driver/ (which writes these words) and
 * hw/ (which reads them from GPU memory through the MMU). docs/methods.md
 * describes the same format in prose; keep the two in step.
 *
 * All words are little-endian 32-bit. A pushbuffer segment is a sequence of
 * method headers, each followed by the data words it announces.
 */
#ifndef PPU_METHODS_H
#define PPU_METHODS_H

#include <stdint.h>

/* ---------------------------------------------------------------------------
 * Method header word
 *
 *   31..29  type       (enum ppu_mthd_type)
 *   28..16  count      number of data words that follow (0..8191); for
 *                      PPU_MTHD_IMMD the 13-bit immediate data instead
 *   15..13  subchannel engine the method goes to (enum ppu_subchannel)
 *   12..0   method     method address in 32-bit words within the subchannel
 * ------------------------------------------------------------------------- */
enum ppu_mthd_type {
   PPU_MTHD_INCR = 1,     /* data word i goes to method + i */
   PPU_MTHD_IMMD = 4,     /* no data words; bits 28..16 are the data */
   PPU_MTHD_NONINCR = 3,  /* every data word goes to the same method */
   PPU_MTHD_INC_ONCE = 5, /* first word to method, the rest to method + 1 */
};

#define PPU_MTHD_COUNT_MAX 8191u
#define PPU_MTHD_ADDR_MAX 8191u

#define PPU_MTHD_HDR(type, subch, method, count)                                                   \
   (((uint32_t)(type) << 29) | (((uint32_t)(count)&0x1fffu) << 16) |                               \
    (((uint32_t)(subch)&0x7u) << 13) | ((uint32_t)(method)&0x1fffu))

#define PPU_MTHD_HDR_TYPE(w) (((w) >> 29) & 0x7u)
#define PPU_MTHD_HDR_COUNT(w) (((w) >> 16) & 0x1fffu)
#define PPU_MTHD_HDR_SUBCH(w) (((w) >> 13) & 0x7u)
#define PPU_MTHD_HDR_ADDR(w) ((w)&0x1fffu)

/* Subchannels are bound to engines at fixed numbers (no run-time binding). */
enum ppu_subchannel {
   PPU_SUBCH_HOST = 0,     /* host interface / front end: semaphores, sync */
   PPU_SUBCH_COMPUTE = 1,  /* compute work distribution (grids) */
   PPU_SUBCH_GRAPHICS = 2, /* primitive distribution, raster, ROP */
   PPU_SUBCH_COPY = 3,     /* copy engine */
};

/* ---------------------------------------------------------------------------
 * GPFIFO entry (64-bit) — one pushbuffer segment to execute
 *
 *   47..0   GPU virtual address of the segment (4-byte aligned)
 *   62..48  length of the segment in 32-bit words (1..32767)
 *   63      reserved, must be 0
 *
 * The GPFIFO is a ring of entries in GPU memory; the driver writes entries and
 * then the new GP_PUT index to the channel's doorbell; the host interface
 * fetches entries from GP_GET up to GP_PUT and advances GP_GET.
 * ------------------------------------------------------------------------- */
#define PPU_GPFIFO_VA_MASK 0x0000ffffffffffffull
#define PPU_GPFIFO_LEN_SHIFT 48
#define PPU_GPFIFO_LEN_MAX 32767u
#define PPU_GPFIFO_ENTRY(va, words)                                                                \
   (((uint64_t)(va)&PPU_GPFIFO_VA_MASK) | ((uint64_t)(words) << PPU_GPFIFO_LEN_SHIFT))
#define PPU_GPFIFO_ENTRY_VA(e) ((e)&PPU_GPFIFO_VA_MASK)
#define PPU_GPFIFO_ENTRY_LEN(e) ((uint32_t)(((e) >> PPU_GPFIFO_LEN_SHIFT) & 0x7fffu))
#define PPU_GPFIFO_ENTRY_RSVD(e) ((e) >> 63)

/* ---------------------------------------------------------------------------
 * Host subchannel (PPU_SUBCH_HOST): semaphores, timestamps, idle waits
 *
 * Semaphores are 64-bit values in GPU memory (8-byte aligned). SEM_EXECUTE
 * performs the operation with the latched address and payload:
 *   ACQUIRE_GEQ  the channel stalls until *addr >= payload (other channels go
 *                on running); this is how queue waits on semaphores and events
 *                are made.
 *   RELEASE      *addr = payload, after all earlier work of the channel is
 *                done (the host waits for idle first).
 *   TIMESTAMP    *addr = the GPU timer in nanoseconds, after earlier work.
 * SEM_EXECUTE flag AWAKEN raises a host interrupt after the operation, so a
 * host thread waiting on that memory is woken.
 * ------------------------------------------------------------------------- */
enum ppu_host_method {
   PPU_HOST_NOP = 0x000,
   PPU_HOST_SEM_ADDR_LO = 0x004,
   PPU_HOST_SEM_ADDR_HI = 0x005,
   PPU_HOST_SEM_PAYLOAD_LO = 0x006,
   PPU_HOST_SEM_PAYLOAD_HI = 0x007,
   PPU_HOST_SEM_EXECUTE = 0x008,
   PPU_HOST_WAIT_FOR_IDLE = 0x010,  /* data ignored; waits until every engine of
                                       the channel has finished earlier work */
   PPU_HOST_TLB_INVALIDATE = 0x011, /* data ignored; drops cached translations */
   PPU_HOST_METHOD_END = 0x020,
};

enum ppu_sem_operation {
   PPU_SEM_OP_ACQUIRE_GEQ = 1,
   PPU_SEM_OP_RELEASE = 2,
   PPU_SEM_OP_TIMESTAMP = 3,
};
#define PPU_SEM_OP_MASK 0xfu
#define PPU_SEM_FLAG_AWAKEN (1u << 4)

/* ---------------------------------------------------------------------------
 * Copy engine subchannel (PPU_SUBCH_COPY)
 *
 * State methods latch addresses and sizes; LAUNCH starts one operation:
 *   COPY    copy LENGTH bytes from SRC to DST (ranges may not overlap)
 *   FILL    write the 32-bit FILL_PATTERN over LENGTH bytes at DST
 *           (DST and LENGTH multiples of 4)
 *   INLINE  the following INLINE_DATA words are written to DST, DST + 4, ...
 *           until LENGTH bytes have been written (LENGTH multiple of 4)
 *   QUERY_COPY  copy QUERY_COUNT query records (see ppu_query_record) from SRC
 *           (record stride 16) to DST with DST_STRIDE, formatted by the
 *           QUERY_FLAGS bits below
 * ------------------------------------------------------------------------- */
enum ppu_copy_method {
   PPU_COPY_SRC_ADDR_LO = 0x000,
   PPU_COPY_SRC_ADDR_HI = 0x001,
   PPU_COPY_DST_ADDR_LO = 0x002,
   PPU_COPY_DST_ADDR_HI = 0x003,
   PPU_COPY_LENGTH_LO = 0x004,
   PPU_COPY_LENGTH_HI = 0x005,
   PPU_COPY_FILL_PATTERN = 0x006,
   PPU_COPY_DST_STRIDE = 0x007,
   PPU_COPY_QUERY_COUNT = 0x008,
   PPU_COPY_QUERY_FLAGS = 0x009,
   PPU_COPY_LAUNCH = 0x010,
   PPU_COPY_INLINE_DATA = 0x011,
   PPU_COPY_METHOD_END = 0x020,
};

enum ppu_copy_operation {
   PPU_COPY_OP_COPY = 1,
   PPU_COPY_OP_FILL = 2,
   PPU_COPY_OP_INLINE = 3,
   PPU_COPY_OP_QUERY_COPY = 4,
};

/* QUERY_FLAGS bits (their meaning matches what a query-result copy needs). */
#define PPU_QUERY_FLAG_64BIT (1u << 0)             /* write 64-bit values, else 32-bit */
#define PPU_QUERY_FLAG_WITH_AVAILABILITY (1u << 1) /* append availability word */
#define PPU_QUERY_FLAG_PARTIAL (1u << 2)           /* write value even if unavailable */

/* A query record as the hardware writes it (TIMESTAMP writes value; the
 * driver's availability release writes available = 1). 16 bytes. */
struct ppu_query_record {
   uint64_t value;
   uint64_t available;
};

/* ---------------------------------------------------------------------------
 * Compute subchannel (PPU_SUBCH_COMPUTE): grids (docs/compute.md)
 *
 * QMD_ADDR latches the VA of a grid descriptor (ppu/qmd.h, 256-byte
 * aligned). LAUNCH (data 0) reads and validates the QMD and runs the grid;
 * LAUNCH_INDIRECT (data 0) does the same with the grid size read from the
 * struct ppu_dispatch_indirect at INDIRECT_ADDR (4-byte aligned) instead of
 * the QMD's grid_size. Either returns only when every workgroup of the grid
 * has ended, so later methods of the channel see all of its memory writes.
 * ------------------------------------------------------------------------- */
enum ppu_compute_method {
   PPU_COMPUTE_QMD_ADDR_LO = 0x000,
   PPU_COMPUTE_QMD_ADDR_HI = 0x001,
   PPU_COMPUTE_INDIRECT_ADDR_LO = 0x002,
   PPU_COMPUTE_INDIRECT_ADDR_HI = 0x003,
   PPU_COMPUTE_LAUNCH = 0x010,
   PPU_COMPUTE_LAUNCH_INDIRECT = 0x011,
   PPU_COMPUTE_METHOD_END = 0x020,
};

#endif /* PPU_METHODS_H */
