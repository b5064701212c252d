/* The graphics engine (subchannel PPU_SUBCH_GRAPHICS, docs/graphics-hw.md):
 * latches the graphics state methods per channel (raster/graphics_state.h)
 * and runs the action methods: DRAW and DRAW_INDIRECT (primitive
 * distribution, vertex warps, the raster engine, fragment warps, ROP),
 * QUERY_BEGIN/END (occlusion sample counts) and RESOLVE.
 *
 * Functional model: an action runs to its end inside the method, on the
 * host interface's model thread, so the next method sees all its writes.
 * Its warps run on the compute engine's SMs (compute/sm_graphics.h); the
 * method stalls while a compute grid holds them.
 */
#ifndef PPU_GRAPHICS_ENGINE_H
#define PPU_GRAPHICS_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "compute/compute_engine.h"
#include "counter_block.h"
#include "method_status.h"
#include "mmu.h"
#include "raster/graphics_state.h"

/* A channel's graphics subchannel: the latched state and the occlusion
 * counter. Zeroed memory is "not yet used"; the first method resets it. */
struct ppu_graphics_context {
   bool ready;
   struct ppu_graphics_state state;
   uint64_t samples_passed; /* ZROP's passing samples of every draw so far */
   uint64_t query_begin;    /* samples_passed at QUERY_BEGIN */
   bool query_active;       /* between QUERY_BEGIN and QUERY_END: samples are counted */
   /* Set by ppu_channel_destroy: a draw in progress stops at the next warp
    * run without a fault, since nobody is left to see its results. */
   _Atomic bool cancel;
};

struct ppu_graphics_engine {
   struct ppu_mmu_client mmu; /* programs, indices, indirect records, scratch, targets */
   struct ppu_compute_engine *compute;
   struct ppu_counter_block *counters;
};

void ppu_graphics_engine_init(struct ppu_graphics_engine *ge, struct ppu_mmu *mmu,
                              struct ppu_compute_engine *compute,
                              struct ppu_counter_block *counters);

enum ppu_method_status ppu_graphics_engine_method(struct ppu_graphics_engine *ge,
                                                  struct ppu_graphics_context *ctx, uint64_t pd_pa,
                                                  uint32_t method, uint32_t data,
                                                  struct ppu_fault *fault);

#endif
