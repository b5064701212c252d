/* See tex_latency_fifo.h. */
#include "texture/tex_latency_fifo.h"

void ppu_tex_latency_fifo_init(struct ppu_tex_latency_fifo *f)
{
   f->head = f->count = f->max_count = 0;
}

bool ppu_tex_latency_fifo_full(const struct ppu_tex_latency_fifo *f)
{
   return f->count == PPU_TEX_LATENCY_FIFO_DEPTH;
}

bool ppu_tex_latency_fifo_empty(const struct ppu_tex_latency_fifo *f)
{
   return f->count == 0;
}

struct ppu_tex_footprint *ppu_tex_latency_fifo_tail(struct ppu_tex_latency_fifo *f)
{
   return &f->entry[(f->head + f->count) % PPU_TEX_LATENCY_FIFO_DEPTH];
}

void ppu_tex_latency_fifo_push(struct ppu_tex_latency_fifo *f)
{
   if (f->count == PPU_TEX_LATENCY_FIFO_DEPTH)
      return;
   f->count++;
   if (f->count > f->max_count)
      f->max_count = f->count;
}

const struct ppu_tex_footprint *ppu_tex_latency_fifo_head(const struct ppu_tex_latency_fifo *f)
{
   return &f->entry[f->head];
}

void ppu_tex_latency_fifo_pop(struct ppu_tex_latency_fifo *f)
{
   if (f->count == 0)
      return;
   f->head = (f->head + 1) % PPU_TEX_LATENCY_FIFO_DEPTH;
   f->count--;
}
