/* See tex_trb.h. */
#include "texture/tex_trb.h"

#include <string.h>

void ppu_tex_trb_init(struct ppu_tex_trb *trb, struct ppu_counter_block *counters)
{
   memset(trb, 0, sizeof(*trb));
   memset(trb->tim, PPU_TEX_TRB_NONE, sizeof(trb->tim));
   for (unsigned i = 0; i < PPU_TEX_TRB_SLOTS; i++)
      trb->free_list[i] = (uint8_t)i;
   trb->free_count = PPU_TEX_TRB_SLOTS;
   trb->counters = counters;
}

unsigned ppu_tex_trb_occupancy(const struct ppu_tex_trb *trb)
{
   return PPU_TEX_TRB_SLOTS - trb->free_count;
}

bool ppu_tex_trb_write(struct ppu_tex_trb *trb, unsigned id, const uint32_t value[4][4])
{
   if (id >= PPU_TEX_TRB_IDS || trb->tim[id] != PPU_TEX_TRB_NONE)
      return false;
   if (trb->free_count == 0) {
      ppu_counter_add(trb->counters, PPU_COUNTER_TEX_TRB_FREE_LIST_STALLS, 1);
      return false;
   }
   uint8_t slot = trb->free_list[trb->free_head];
   trb->free_head = (trb->free_head + 1) % PPU_TEX_TRB_SLOTS;
   trb->free_count--;
   memcpy(trb->value[slot], value, sizeof(trb->value[slot]));
   trb->tim[id] = slot;
   unsigned occupancy = ppu_tex_trb_occupancy(trb);
   if (occupancy > trb->max_occupancy)
      trb->max_occupancy = occupancy;
   ppu_counter_add(trb->counters, PPU_COUNTER_TEX_TRB_ALLOCATIONS, 1);
   ppu_counter_add(trb->counters, PPU_COUNTER_TEX_TRB_OCCUPANCY_SUM, occupancy);
   return true;
}

bool ppu_tex_trb_ready(const struct ppu_tex_trb *trb, unsigned id)
{
   return id < PPU_TEX_TRB_IDS && trb->tim[id] != PPU_TEX_TRB_NONE;
}

bool ppu_tex_trb_read(struct ppu_tex_trb *trb, unsigned id, bool last_use, uint32_t out[4][4])
{
   if (!ppu_tex_trb_ready(trb, id))
      return false;
   uint8_t slot = trb->tim[id];
   memcpy(out, trb->value[slot], sizeof(trb->value[slot]));
   if (last_use) {
      /* The freed slot goes to the tail of the free-list queue. */
      trb->tim[id] = PPU_TEX_TRB_NONE;
      trb->free_list[(trb->free_head + trb->free_count) % PPU_TEX_TRB_SLOTS] = slot;
      trb->free_count++;
   }
   return true;
}
