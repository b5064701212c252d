/* See dram_model.h. */
#include "timing/dram_model.h"

void ppu_dram_model_init(struct ppu_dram_model *d, uint32_t latency, uint32_t bytes_per_cycle)
{
   d->latency = latency;
   d->bytes_per_cycle = bytes_per_cycle ? bytes_per_cycle : 1;
   d->bus_free_bytetime = 0;
}

uint64_t ppu_dram_model_transfer(struct ppu_dram_model *d, uint64_t now, uint32_t bytes)
{
   uint64_t start = now * d->bytes_per_cycle;
   if (start < d->bus_free_bytetime)
      start = d->bus_free_bytetime;
   d->bus_free_bytetime = start + bytes;
   uint64_t done = (d->bus_free_bytetime + d->bytes_per_cycle - 1) / d->bytes_per_cycle;
   return done + d->latency;
}
