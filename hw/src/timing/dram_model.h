/* DRAM in the timing mode: a fixed access latency and a bandwidth. Requests
 * share one bus in the order they arrive; each holds it for bytes /
 * bytes_per_cycle cycles (kept exact in byte-times, so a bandwidth above one
 * line per cycle is no problem). Counts dram.bytes_read / _written. */
#ifndef PPU_TIMING_DRAM_MODEL_H
#define PPU_TIMING_DRAM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

struct ppu_dram_model {
   uint32_t latency;
   uint32_t bytes_per_cycle;
   uint64_t bus_free_bytetime; /* cycle * bytes_per_cycle when the bus is next free */
};

void ppu_dram_model_init(struct ppu_dram_model *d, uint32_t latency, uint32_t bytes_per_cycle);

/* A transfer of `bytes` requested at cycle `now`: returns the cycle its
 * data is back (reads) or written (writes). */
uint64_t ppu_dram_model_transfer(struct ppu_dram_model *d, uint64_t now, uint32_t bytes);

#endif /* PPU_TIMING_DRAM_MODEL_H */
