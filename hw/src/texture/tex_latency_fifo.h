/* The texture latency FIFO (seed: the TAU's requests wait in "the texture
 * latency FIFO" while their texels are fetched, then go to the TFU in
 * order). Functional mode: a plain ring of quad footprints between the
 * address unit and the filtering unit; the texture unit fills it until it
 * is full, then drains it, so the order in and out is the order the texture
 * queue drained. The timing mode will hold each entry for its memory
 * latency here.
 */
#ifndef PPU_TEXTURE_TEX_LATENCY_FIFO_H
#define PPU_TEXTURE_TEX_LATENCY_FIFO_H

#include <stdbool.h>

#include "texture/tex_address.h"

#define PPU_TEX_LATENCY_FIFO_DEPTH 8u

struct ppu_tex_latency_fifo {
   struct ppu_tex_footprint entry[PPU_TEX_LATENCY_FIFO_DEPTH];
   unsigned head, count;
   unsigned max_count; /* deepest it has been, for tests and reports */
};

void ppu_tex_latency_fifo_init(struct ppu_tex_latency_fifo *f);
bool ppu_tex_latency_fifo_full(const struct ppu_tex_latency_fifo *f);
bool ppu_tex_latency_fifo_empty(const struct ppu_tex_latency_fifo *f);
/* The slot the next push fills (valid when not full); push commits it. */
struct ppu_tex_footprint *ppu_tex_latency_fifo_tail(struct ppu_tex_latency_fifo *f);
void ppu_tex_latency_fifo_push(struct ppu_tex_latency_fifo *f);
/* The oldest entry (valid when not empty); pop drops it. */
const struct ppu_tex_footprint *ppu_tex_latency_fifo_head(const struct ppu_tex_latency_fifo *f);
void ppu_tex_latency_fifo_pop(struct ppu_tex_latency_fifo *f);

#endif
