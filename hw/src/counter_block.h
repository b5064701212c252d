/* The storage behind ppu/counters.h: one block of counters per chip that
 * every unit adds to.
 *
 * Today every unit runs on the chip's one model thread, so each counter has a
 * single writer: an add is a relaxed load plus a relaxed store (a plain add on
 * x86-64, no locked instruction), and host threads read with relaxed loads.
 * A unit that later runs on several threads must keep per-thread blocks and
 * sum them in ppu_gpu_read_counters instead of sharing this one (the SMs
 * do: each SM has its block, written by the one worker that runs it). The
 * timing mode's worker writes timing.chip_cycles into the chip's block; no
 * other thread writes that counter.
 */
#ifndef PPU_COUNTER_BLOCK_H
#define PPU_COUNTER_BLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#include "ppu/counters.h"

struct ppu_counter_block {
   _Atomic uint64_t value[PPU_COUNTER_COUNT];
};

static inline void ppu_counter_add(struct ppu_counter_block *b, enum ppu_counter id, uint64_t n)
{
   uint64_t v = atomic_load_explicit(&b->value[id], memory_order_relaxed);
   atomic_store_explicit(&b->value[id], v + n, memory_order_relaxed);
}

#endif /* PPU_COUNTER_BLOCK_H */
