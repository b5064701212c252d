/* The texture return buffer (TRB) of one SM's texture unit, after the
 * seed (US 9,171,525): final texture values land in TRB slots instead of
 * the register file; a texture identifier (a handle the texture operation
 * carries through the pipeline) finds its slot through the TIM table; slots
 * come from a free list, and the filtering unit stalls when the list is
 * empty ("If the TRB free list table is empty then the TFU stalls until an
 * entry has been deallocated"); a read with the last-use bit set
 * invalidates the TIM entry and returns the slot to the free list.
 *
 * One slot holds one quad's result: 4 lanes x 4 words, 64 bytes, so the
 * seed's "1 KB portion of registers" is PPU_TEX_TRB_SLOTS = 16 slots.
 */
#ifndef PPU_TEXTURE_TEX_TRB_H
#define PPU_TEXTURE_TEX_TRB_H

#include <stdbool.h>
#include <stdint.h>

#include "counter_block.h"

#define PPU_TEX_TRB_SLOTS 16u
#define PPU_TEX_TRB_IDS 64u /* texture identifiers: 6 bits */
#define PPU_TEX_TRB_NONE 0xffu

struct ppu_tex_trb {
   uint32_t value[PPU_TEX_TRB_SLOTS][4][4]; /* [slot][lane of the quad][component] */
   uint8_t tim[PPU_TEX_TRB_IDS];            /* identifier -> slot, NONE when not ready */
   uint8_t free_list[PPU_TEX_TRB_SLOTS];    /* a queue of free slot numbers */
   unsigned free_head, free_count;
   unsigned max_occupancy; /* since init, for tests and reports */
   struct ppu_counter_block *counters;
};

void ppu_tex_trb_init(struct ppu_tex_trb *trb, struct ppu_counter_block *counters);
/* Slots in use. */
unsigned ppu_tex_trb_occupancy(const struct ppu_tex_trb *trb);
/* Takes a slot from the free list for identifier id and stores the quad's
 * values there; the TIM entry marks the value ready. False (and one
 * tex.trb_free_list_stalls) when the free list is empty: the caller must
 * let the consumer free slots and try again. An id already in use is
 * refused as well (false, no stall counted). */
bool ppu_tex_trb_write(struct ppu_tex_trb *trb, unsigned id, const uint32_t value[4][4]);
/* True when identifier id has a value in the TRB. */
bool ppu_tex_trb_ready(const struct ppu_tex_trb *trb, unsigned id);
/* Copies id's value to out; with last_use, frees the slot. False when id
 * has no value. */
bool ppu_tex_trb_read(struct ppu_tex_trb *trb, unsigned id, bool last_use, uint32_t out[4][4]);

#endif
