/* The copy engine (subchannel PPU_SUBCH_COPY): copies, fills, inline writes
 * and query-result copies between GPU virtual addresses, copies and
 * clears of images described by texture headers (copy_engine_image.c), and
 * scaled blits between images (copy_engine_blit.c).
 *
 * The engine unit (its memory port and counters) is shared by all channels;
 * the latched method state is per channel (struct ppu_copy_context), as a
 * context switch on a real chip would save and restore it. Every operation
 * completes before the method that launched it returns, so later methods of
 * the channel always see its results.
 */
#ifndef PPU_COPY_ENGINE_H
#define PPU_COPY_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "method_status.h"
#include "mmu.h"

/* The copy subchannel's state of one channel. */
struct ppu_copy_context {
   uint64_t src_va, dst_va, length;
   uint32_t fill_pattern, dst_stride, query_count, query_flags;
   /* An INLINE launch in progress: bytes still expected, next VA, and the
    * translation of the page it falls in (so each word costs a store, not a
    * TLB lookup). inline_epoch is the MMU epoch the translation was made at. */
   uint64_t inline_left;
   uint64_t inline_va;
   uint64_t inline_pa;
   uint64_t inline_page_left;
   uint64_t inline_epoch;
   /* Image operations (copy_engine_image.c). */
   uint64_t src_header_va, dst_header_va;
   uint32_t buffer_row_length, buffer_image_height;
   uint32_t src_level, src_layer, dst_level, dst_layer, layer_count, level_count;
   uint32_t src_offset[3], dst_offset[3], extent[3];
   uint32_t aspect;
   uint32_t clear_value[4];
   /* BLIT (copy_engine_blit.c): corners 0 and 1 of each box, x y z. */
   int32_t blit_src[2][3], blit_dst[2][3];
   uint32_t blit_filter;
};

struct ppu_copy_engine {
   struct ppu_mmu_client mmu;
   struct ppu_counter_block *counters;
};

void ppu_copy_engine_init(struct ppu_copy_engine *ce, struct ppu_mmu *mmu,
                          struct ppu_counter_block *counters);

/* Executes one copy-subchannel method word for a channel whose address
 * space is pd_pa. */
enum ppu_method_status ppu_copy_engine_method(struct ppu_copy_engine *ce,
                                              struct ppu_copy_context *ctx, uint64_t pd_pa,
                                              uint32_t method, uint32_t data,
                                              struct ppu_fault *fault);

/* Executes a run of INLINE_DATA words at once: the data words of one
 * NONINCR method header, up to as many as the current INLINE launch still
 * expects. Same effect as that many ppu_copy_engine_method calls, with one
 * translation per page instead of per word (vkCmdUpdateBuffer is made of
 * these runs). Returns the words consumed: fewer than count when the launch
 * is satisfied first, 0 when no INLINE is in progress — the caller then goes
 * on word by word, which faults as the method rules say. A translation fault
 * returns false with *fault filled. */
bool ppu_copy_engine_inline_run(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                uint64_t pd_pa, const uint32_t *words, uint32_t count,
                                uint32_t *consumed, struct ppu_fault *fault);

/* The image operations' state methods (PPU_COPY_SRC_HEADER_LO ..
 * PPU_COPY_CLEAR_VALUE_3): false for a method that is not one of them. */
bool ppu_copy_engine_image_state(struct ppu_copy_context *ctx, uint32_t method, uint32_t data);

/* BLIT's state methods (PPU_COPY_SRC_X0 .. PPU_COPY_FILTER): false for a
 * method that is not one of them. */
bool ppu_copy_engine_blit_state(struct ppu_copy_context *ctx, uint32_t method, uint32_t data);

/* LAUNCH of BLIT (copy_engine_blit.c). */
enum ppu_method_status ppu_copy_engine_blit_launch(struct ppu_copy_engine *ce,
                                                   struct ppu_copy_context *ctx, uint64_t pd_pa,
                                                   struct ppu_fault *fault);

/* LAUNCH of BUFFER_TO_IMAGE, IMAGE_TO_BUFFER, IMAGE_TO_IMAGE or
 * CLEAR_IMAGE (copy_engine_image.c). */
enum ppu_method_status ppu_copy_engine_image_launch(struct ppu_copy_engine *ce,
                                                    struct ppu_copy_context *ctx, uint64_t pd_pa,
                                                    uint32_t op, struct ppu_fault *fault);

#endif /* PPU_COPY_ENGINE_H */
