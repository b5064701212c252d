/* See dram_model.h. */
#include "timing/dram_model.h"

#include <stdlib.h>

bool ppu_dram_model_init(struct ppu_dram_model *d, uint32_t latency, uint32_t bytes_per_cycle)
{
   d->latency = latency;
   d->bytes_per_cycle = bytes_per_cycle ? bytes_per_cycle : 1;
   d->window = calloc(PPU_DRAM_WINDOWS, sizeof(*d->window));
   return d->window != NULL;
}

void ppu_dram_model_finish(struct ppu_dram_model *d)
{
   free(d->window);
   d->window = NULL;
}

uint64_t ppu_dram_model_transfer(struct ppu_dram_model *d, uint64_t now, uint32_t bytes)
{
   uint64_t window_bytes = (uint64_t)PPU_DRAM_WINDOW_CYCLES * d->bytes_per_cycle;
   uint64_t pos = now * d->bytes_per_cycle, left = bytes;
   while (left) {
      uint64_t index = pos / window_bytes;
      struct ppu_dram_window *w = &d->window[index % PPU_DRAM_WINDOWS];
      if (w->index_plus_1 > index + 1) {
         /* Older than the calendar reaches: the bus does not hold it up. */
         pos += left;
         break;
      }
      if (w->index_plus_1 != index + 1) { /* a window not used yet */
         w->index_plus_1 = index + 1;
         w->fill = index * window_bytes;
      }
      uint64_t end = (index + 1) * window_bytes;
      if (pos < w->fill)
         pos = w->fill;
      if (pos >= end)
         continue; /* full: the next window */
      uint64_t take = end - pos < left ? end - pos : left;
      pos += take;
      left -= take;
      w->fill = pos;
   }
   return (pos + d->bytes_per_cycle - 1) / d->bytes_per_cycle + d->latency;
}
