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
   /* COUNTER_SNAPSHOT (data 0) writes every hardware counter, once the
    * channel's earlier work is done, as a struct ppu_counter_snapshot_header
    * and PPU_COUNTER_COUNT 64-bit values (ppu/counter_snapshot.h) at the
    * latched 8-byte aligned address. */
   PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO = 0x018,
   PPU_HOST_COUNTER_SNAPSHOT_ADDR_HI = 0x019,
   PPU_HOST_COUNTER_SNAPSHOT = 0x01a,
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
 *
 * Image operations name images by the VA of a texture header
 * (ppu/texture.h) that the engine reads through the MMU; the header's
 * image fields (address, format, layout, extent, image_levels, block
 * height, layer_stride, row_pitch) place every texel by
 * ppu_tex_byte_offset, and its view's layers (base_layer, layer_count)
 * bound the layers an operation may touch. Offsets and extents are in
 * texels (multiples of 4 where a block-compressed format needs whole
 * blocks); a 3D image has slices (OFFSET_Z, EXTENT_DEPTH) where others
 * have layers (LAYER, LAYER_COUNT). docs/methods.md and docs/texture.md
 * give the rules.
 *   BUFFER_TO_IMAGE  texels from the buffer at SRC (BUFFER_ROW_LENGTH,
 *           BUFFER_IMAGE_HEIGHT: Vulkan's bufferRowLength and
 *           bufferImageHeight, 0 = tightly packed) into the region of
 *           DST_HEADER's image at DST_LEVEL, DST_LAYER, DST_OFFSET, EXTENT
 *   IMAGE_TO_BUFFER  the reverse: SRC_HEADER's region to the buffer at DST
 *   IMAGE_TO_IMAGE  SRC_HEADER's region to DST_HEADER's (same bytes per
 *           texel or block; EXTENT in source texels)
 *   CLEAR_IMAGE  CLEAR_VALUE encoded in DST_HEADER's format over levels
 *           DST_LEVEL .. + LEVEL_COUNT, layers DST_LAYER .. + LAYER_COUNT
 *   BLIT    the 2D engine's scaled copy, Vulkan's vkCmdBlitImage: the box
 *           SRC_X0..X1 x Y0..Y1 x Z0..Z1 of SRC_HEADER's level SRC_LEVEL
 *           scaled onto the box DST_X0..X1 ... of DST_HEADER's DST_LEVEL
 *           (reversed corners mirror), FILTER nearest or linear, clamp to
 *           the source level's edge, converted through the texel codec;
 *           layers SRC_LAYER/DST_LAYER .. + LAYER_COUNT (1 for 3D images)
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
   /* Image operations (0x020 ..). */
   PPU_COPY_SRC_HEADER_LO = 0x020, /* VA of the source image's texture header */
   PPU_COPY_SRC_HEADER_HI = 0x021,
   PPU_COPY_DST_HEADER_LO = 0x022, /* VA of the destination image's texture header */
   PPU_COPY_DST_HEADER_HI = 0x023,
   PPU_COPY_BUFFER_ROW_LENGTH = 0x024,   /* texels; 0 = EXTENT_WIDTH */
   PPU_COPY_BUFFER_IMAGE_HEIGHT = 0x025, /* rows of texels; 0 = EXTENT_HEIGHT */
   PPU_COPY_SRC_LEVEL = 0x026,
   PPU_COPY_SRC_LAYER = 0x027,
   PPU_COPY_DST_LEVEL = 0x028,
   PPU_COPY_DST_LAYER = 0x029,
   PPU_COPY_LAYER_COUNT = 0x02a,
   PPU_COPY_LEVEL_COUNT = 0x02b, /* CLEAR_IMAGE only */
   PPU_COPY_SRC_OFFSET_X = 0x02c,
   PPU_COPY_SRC_OFFSET_Y = 0x02d,
   PPU_COPY_SRC_OFFSET_Z = 0x02e,
   PPU_COPY_DST_OFFSET_X = 0x02f,
   PPU_COPY_DST_OFFSET_Y = 0x030,
   PPU_COPY_DST_OFFSET_Z = 0x031,
   PPU_COPY_EXTENT_WIDTH = 0x032,
   PPU_COPY_EXTENT_HEIGHT = 0x033,
   PPU_COPY_EXTENT_DEPTH = 0x034,
   PPU_COPY_ASPECT = 0x035,        /* PPU_COPY_ASPECT_* bits; 0 = the whole texel */
   PPU_COPY_CLEAR_VALUE_0 = 0x036, /* color R, or depth (float bits) */
   PPU_COPY_CLEAR_VALUE_1 = 0x037, /* color G, or stencil */
   PPU_COPY_CLEAR_VALUE_2 = 0x038, /* color B */
   PPU_COPY_CLEAR_VALUE_3 = 0x039, /* color A */
   /* BLIT (0x040 ..): two corners of each region, signed texels; a pair
    * given in reverse order mirrors that axis. */
   PPU_COPY_SRC_X0 = 0x040,
   PPU_COPY_SRC_Y0 = 0x041,
   PPU_COPY_SRC_Z0 = 0x042,
   PPU_COPY_SRC_X1 = 0x043,
   PPU_COPY_SRC_Y1 = 0x044,
   PPU_COPY_SRC_Z1 = 0x045,
   PPU_COPY_DST_X0 = 0x046,
   PPU_COPY_DST_Y0 = 0x047,
   PPU_COPY_DST_Z0 = 0x048,
   PPU_COPY_DST_X1 = 0x049,
   PPU_COPY_DST_Y1 = 0x04a,
   PPU_COPY_DST_Z1 = 0x04b,
   PPU_COPY_FILTER = 0x04c, /* enum ppu_copy_filter */
   PPU_COPY_METHOD_END = 0x050,
};

enum ppu_copy_operation {
   PPU_COPY_OP_COPY = 1,
   PPU_COPY_OP_FILL = 2,
   PPU_COPY_OP_INLINE = 3,
   PPU_COPY_OP_QUERY_COPY = 4,
   PPU_COPY_OP_BUFFER_TO_IMAGE = 5,
   PPU_COPY_OP_IMAGE_TO_BUFFER = 6,
   PPU_COPY_OP_IMAGE_TO_IMAGE = 7,
   PPU_COPY_OP_CLEAR_IMAGE = 8,
   PPU_COPY_OP_BLIT = 9,
};

/* FILTER of a BLIT: how a source texel is read at the scaled coordinate. */
enum ppu_copy_filter {
   PPU_COPY_FILTER_NEAREST = 0,
   PPU_COPY_FILTER_LINEAR = 1,
};

/* ASPECT bits, for depth/stencil formats (must be 0 for color formats).
 * Buffer copies of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT take exactly
 * one: the buffer then holds 4-byte depth texels (D24 in bits 23..0, bits
 * 31..24 written 0) or 1-byte stencil texels, as Vulkan's buffer layout
 * for depth/stencil copies says. One aspect of a combined format leaves
 * the other's bits in the image untouched. */
#define PPU_COPY_ASPECT_DEPTH (1u << 0)
#define PPU_COPY_ASPECT_STENCIL (1u << 1)

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

/* ---------------------------------------------------------------------------
 * Graphics subchannel (PPU_SUBCH_GRAPHICS): draws (docs/graphics-hw.md,
 * "Methods (subchannel 2)"; state encodings and records in ppu/graphics.h).
 * Word addresses. Groups are laid out so one INCR header sets a whole
 * group, as the copy engine's are.
 * ------------------------------------------------------------------------- */
enum ppu_gfx_method {
   /* Scratch memory of the draw: vertex output records and primitive records
    * (the model's stand-in for the on-chip attribute buffers). */
   PPU_GFX_SCRATCH_ADDR_LO = 0x000,
   PPU_GFX_SCRATCH_ADDR_HI = 0x001,
   PPU_GFX_SCRATCH_SIZE = 0x002, /* bytes, multiple of 256 */

   /* Color target i: 8 words at COLOR_TARGET(i). A FORMAT of INVALID (0)
    * disables the target. */
   PPU_GFX_COLOR_TARGET_BASE = 0x100,
   PPU_GFX_DEPTH_TARGET_BASE = 0x140, /* the same 8 words for depth/stencil */
   PPU_GFX_SAMPLES_LOG2 = 0x150,      /* 0 (1x) or 2 (4x) for every target */
   PPU_GFX_SAMPLE_MASK = 0x151,       /* bits 3..0: samples that may be covered */
   PPU_GFX_RENDER_AREA_XY0 = 0x152,   /* x | y << 16: pixels outside are never touched */
   PPU_GFX_RENDER_AREA_XY1 = 0x153,   /* exclusive corner */
   /* Layers a primitive may select with its provoking vertex's layer word
    * (targets at LAYER + that word); a primitive at or beyond it is
    * dropped. 0 counts as 1. At most 2048. */
   PPU_GFX_LAYER_COUNT = 0x154,
   /* Added to every primitive's layer word before LAYER_COUNT checks it
    * and it picks the targets' layer: a driver renders multiview by
    * drawing once per view with LAYER_OFFSET = the view. Below 2048. */
   PPU_GFX_LAYER_OFFSET = 0x155,
   /* Resolve targets (1x): the same 8 words; RESOLVE writes them. */
   PPU_GFX_RESOLVE_TARGET_BASE = 0x180,
   PPU_GFX_RESOLVE_DEPTH_TARGET_BASE = 0x1c0,

   /* Viewport i: 8 float words at VIEWPORT(i): window = ndc * scale + offset;
    * DEPTH_MIN/MAX is the depth clamp range. */
   PPU_GFX_VIEWPORT_BASE = 0x200,
   /* Scissor i: 2 words at SCISSOR(i): x0 | y0 << 16, x1 | y1 << 16 (exclusive). */
   PPU_GFX_SCISSOR_BASE = 0x280,

   /* Raster state. */
   PPU_GFX_TOPOLOGY = 0x300,          /* enum ppu_gfx_topology */
   PPU_GFX_PRIMITIVE_RESTART = 0x301, /* 1: the all-ones index restarts strips and fans */
   PPU_GFX_PROVOKING_VERTEX = 0x302,  /* 0 first, 1 last */
   PPU_GFX_CULL = 0x303,              /* PPU_GFX_CULL_* bits */
   PPU_GFX_FRONT_FACE = 0x304,        /* enum ppu_gfx_front_face */
   PPU_GFX_POLYGON_MODE = 0x305,      /* 0 fill, 1 line, 2 point */
   PPU_GFX_DEPTH_CLAMP = 0x306,       /* PPU_GFX_DEPTH_CLAMP_* bits */
   PPU_GFX_DEPTH_BIAS_ENABLE = 0x307,
   PPU_GFX_DEPTH_BIAS_CONSTANT = 0x308, /* float: units of the minimum resolvable difference */
   PPU_GFX_DEPTH_BIAS_SLOPE = 0x309,    /* float: times the maximum depth slope */
   PPU_GFX_DEPTH_BIAS_CLAMP = 0x30a,    /* float: 0 none, > 0 upper, < 0 lower bound */
   PPU_GFX_LINE_WIDTH = 0x30b,          /* float, pixels */
   PPU_GFX_RASTERIZER_DISCARD = 0x30c,  /* 1: primitives end after vertex work */
   PPU_GFX_PIXEL_ORDER = 0x30d,         /* enum ppu_gfx_pixel_order */
   PPU_GFX_SAMPLE_SHADING = 0x30e,      /* 1: one fragment invocation per covered sample */
   PPU_GFX_CLIP_DISTANCE_MASK = 0x30f,  /* distances of the vertex record that clip */
   PPU_GFX_CULL_DISTANCE_MASK = 0x310,  /* distances that cull: all vertices < 0 drops it */

   /* Depth/stencil state (ZROP). */
   PPU_GFX_DEPTH_TEST = 0x340,    /* bit 0 test, bit 1 write */
   PPU_GFX_DEPTH_COMPARE = 0x341, /* enum ppu_gfx_compare_op */
   PPU_GFX_DEPTH_BOUNDS_ENABLE = 0x342,
   PPU_GFX_DEPTH_BOUNDS_MIN = 0x343, /* float */
   PPU_GFX_DEPTH_BOUNDS_MAX = 0x344, /* float */
   PPU_GFX_STENCIL_ENABLE = 0x345,
   PPU_GFX_STENCIL_FRONT_OPS = 0x346,   /* PPU_GFX_STENCIL_OPS() */
   PPU_GFX_STENCIL_FRONT_MASKS = 0x347, /* PPU_GFX_STENCIL_MASKS() */
   PPU_GFX_STENCIL_BACK_OPS = 0x348,
   PPU_GFX_STENCIL_BACK_MASKS = 0x349,

   /* Blend state (CROP): 2 words per color target at BLEND(i), then shared. */
   PPU_GFX_BLEND_BASE = 0x380,        /* BLEND_EQUATION, BLEND_CONTROL */
   PPU_GFX_BLEND_CONSTANT_R = 0x3a0,  /* float; G, B, A follow */
   PPU_GFX_LOGIC_OP = 0x3a4,          /* bit 4 enable, bits 3..0 enum ppu_gfx_logic_op */
   PPU_GFX_ALPHA_TO_COVERAGE = 0x3a5, /* bit 0 alpha to coverage, bit 1 alpha to one */

   /* Programs: VA of a struct ppu_gfx_program (256-byte aligned). */
   PPU_GFX_VERTEX_PROGRAM_LO = 0x400,
   PPU_GFX_VERTEX_PROGRAM_HI = 0x401,
   PPU_GFX_FRAGMENT_PROGRAM_LO = 0x402,
   PPU_GFX_FRAGMENT_PROGRAM_HI = 0x403,

   /* Index buffer. */
   PPU_GFX_INDEX_ADDR_LO = 0x440,
   PPU_GFX_INDEX_ADDR_HI = 0x441,
   PPU_GFX_INDEX_SIZE = 0x442,  /* bytes per index: 1, 2 or 4 */
   PPU_GFX_INDEX_LIMIT = 0x443, /* indices in the buffer; beyond it an index reads 0 */

   /* Draws. DRAW launches with the five state words before it. */
   PPU_GFX_DRAW_FIRST = 0x480, /* first vertex, or first index when indexed */
   PPU_GFX_DRAW_COUNT = 0x481, /* vertices or indices */
   PPU_GFX_DRAW_FIRST_INSTANCE = 0x482,
   PPU_GFX_DRAW_INSTANCE_COUNT = 0x483,
   PPU_GFX_DRAW_VERTEX_OFFSET = 0x484, /* signed, added to each index */
   PPU_GFX_DRAW = 0x485,               /* PPU_GFX_DRAW_FLAG_* */
   PPU_GFX_INDIRECT_ADDR_LO = 0x486,
   PPU_GFX_INDIRECT_ADDR_HI = 0x487,
   PPU_GFX_INDIRECT_STRIDE = 0x488,    /* bytes between argument records */
   PPU_GFX_INDIRECT_MAX_COUNT = 0x489, /* draws; with COUNT_FROM_MEMORY an upper bound */
   PPU_GFX_INDIRECT_COUNT_ADDR_LO = 0x48a,
   PPU_GFX_INDIRECT_COUNT_ADDR_HI = 0x48b,
   PPU_GFX_DRAW_INDIRECT = 0x48c, /* PPU_GFX_DRAW_FLAG_* */

   /* Occlusion queries: ZROP sample counts. */
   PPU_GFX_QUERY_ADDR_LO = 0x4c0,
   PPU_GFX_QUERY_ADDR_HI = 0x4c1,
   PPU_GFX_QUERY_BEGIN = 0x4c2, /* data ignored: the sample counter restarts at 0 */
   PPU_GFX_QUERY_END = 0x4c3,   /* data ignored: writes {count, 1} as a ppu_query_record */

   /* Multisample resolve of the render area into the resolve targets. */
   PPU_GFX_RESOLVE = 0x4d0, /* PPU_GFX_RESOLVE_* fields */

   PPU_GFX_METHOD_END = 0x500,
};

#define PPU_GFX_COLOR_TARGET(i) (PPU_GFX_COLOR_TARGET_BASE + 8u * (i))
#define PPU_GFX_RESOLVE_TARGET(i) (PPU_GFX_RESOLVE_TARGET_BASE + 8u * (i))
#define PPU_GFX_VIEWPORT(i) (PPU_GFX_VIEWPORT_BASE + 8u * (i))
#define PPU_GFX_SCISSOR(i) (PPU_GFX_SCISSOR_BASE + 2u * (i))
#define PPU_GFX_BLEND(i) (PPU_GFX_BLEND_BASE + 2u * (i))

#endif /* PPU_METHODS_H */
