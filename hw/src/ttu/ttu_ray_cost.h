/* The ray cost buffer's writer (ppu/qmd.h, struct ppu_qmd_ray_cost): after a
 * lane's TTU instruction the SM adds the BVH nodes it fetched to the lane's
 * word, so a profiler can draw a per-pixel map of traversal cost.
 *
 * This is a profiling side channel, not part of the modeled machine: it has
 * its own translation port whose TLB and counts are private, so turning it
 * on changes no counter, no cache state and no cycle of the model. */
#ifndef PPU_TTU_RAY_COST_H
#define PPU_TTU_RAY_COST_H

#include <stdint.h>

#include "ppu/qmd.h"

struct ppu_ttu;

/* Adds nodes to word [y * pitch + x] of the buffer rc describes in the
 * address space pd_pa; nothing when (x, y) is outside width x height, when
 * nodes is 0, or when the word cannot be written (an unmapped or read-only
 * page: the profiler's buffer is the driver's, so that is a driver bug, and a
 * profiling aid must not fault the application's grid). */
void ppu_ttu_ray_cost_add(struct ppu_ttu *ttu, uint64_t pd_pa, const struct ppu_qmd_ray_cost *rc,
                          uint32_t x, uint32_t y, uint32_t nodes);

/* Frees the port ppu_ttu_ray_cost_add allocated on first use. */
void ppu_ttu_ray_cost_finish(struct ppu_ttu *ttu);

#endif /* PPU_TTU_RAY_COST_H */
