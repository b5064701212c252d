/* The timing mode's memory hierarchy below the SMs: a per-SM L1 (shared by
 * the LSU, the TTU's L0 fills and the texture cache's fills, as the
 * predictor notes' RT unit shares the LDST unit's L1) with a limited number
 * of misses in flight (MSHRs), one L2 for the chip and DRAM behind it.
 *
 * Timing only, tags only (cache_model.h): every function returns the cycle
 * data is ready and counts hits, misses and DRAM bytes in the requesting
 * SM's counter block. Everything runs on the one timing thread, in
 * (approximately) cycle order of the requests.
 *
 * Writes: the L1 is write-through without allocation (a store goes on to
 * the L2, the L1 copy, if any, stays valid); the L2 is write-back with
 * allocation, and a store that misses allocates the line without reading
 * DRAM (it assumes the line is written whole; docs/timing.md). Atomics are
 * performed at the L2. */
#ifndef PPU_TIMING_MEMORY_SYSTEM_H
#define PPU_TIMING_MEMORY_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"
#include "ppu/gpu.h"
#include "timing/cache_model.h"
#include "timing/dram_model.h"
#include "timing/mshr_calendar.h"

/* The chip's L2 and DRAM. */
struct ppu_l2 {
   struct ppu_cache_model tags;
   uint32_t latency; /* hit, from the SM's request */
   struct ppu_dram_model dram;
};

bool ppu_l2_init(struct ppu_l2 *l2, const struct ppu_gpu_config *cfg);
void ppu_l2_finish(struct ppu_l2 *l2);
/* A line request reaching the L2 at cycle now (read, write or atomic).
 * Returns when its data (or acknowledgement) is back at the SM. */
uint64_t ppu_l2_access(struct ppu_l2 *l2, struct ppu_counter_block *counters, uint64_t now,
                       uint64_t addr, bool write);

/* One SM's L1. */
struct ppu_l1 {
   struct ppu_cache_model tags;
   uint32_t latency;
   struct ppu_mshr_calendar mshrs; /* l1.mshrs misses in flight at most */
   struct ppu_l2 *l2;
   struct ppu_counter_block *counters; /* the SM's */
};

bool ppu_l1_init(struct ppu_l1 *l1, const struct ppu_gpu_config *cfg, struct ppu_l2 *l2,
                 struct ppu_counter_block *counters);
void ppu_l1_finish(struct ppu_l1 *l1);
/* Loads the 128-byte line holding addr, requested at cycle now: returns
 * the cycle its data is at the requester. */
uint64_t ppu_l1_read(struct ppu_l1 *l1, uint64_t now, uint64_t addr);
/* A store's line, written through to the L2; returns when the L2 has it. */
uint64_t ppu_l1_write(struct ppu_l1 *l1, uint64_t now, uint64_t addr);

#endif /* PPU_TIMING_MEMORY_SYSTEM_H */
