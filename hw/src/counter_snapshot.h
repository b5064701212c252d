/* The front end's counter-snapshot unit: COUNTER_SNAPSHOT_ADDR_LO/HI latch
 * an address per channel, COUNTER_SNAPSHOT writes every hardware counter
 * there (ppu/counter_snapshot.h) through the MMU. */
#ifndef PPU_COUNTER_SNAPSHOT_UNIT_H
#define PPU_COUNTER_SNAPSHOT_UNIT_H

#include <stdint.h>

#include "fault.h"
#include "method_status.h"
#include "mmu.h"

struct ppu_gpu;

/* What one channel latched. */
struct ppu_counter_snapshot_context {
   uint64_t va;
};

struct ppu_counter_snapshot {
   struct ppu_mmu_client mmu; /* the snapshot's write port, faults as engine host */
   struct ppu_gpu *gpu;       /* whose counters are read (every unit's block) */
};

void ppu_counter_snapshot_init(struct ppu_counter_snapshot *cs, struct ppu_mmu *mmu,
                               struct ppu_gpu *gpu);

/* Executes PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO, _ADDR_HI or _SNAPSHOT. */
enum ppu_method_status ppu_counter_snapshot_method(struct ppu_counter_snapshot *cs,
                                                   struct ppu_counter_snapshot_context *ctx,
                                                   uint64_t pd_pa, uint32_t method, uint32_t data,
                                                   struct ppu_fault *fault);

#endif /* PPU_COUNTER_SNAPSHOT_UNIT_H */
