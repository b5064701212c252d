/* Graphics warps: launch with chosen lanes, run to idle. */
#include "compute/sm_graphics.h"

struct ppu_warp *ppu_sm_launch_graphics_warp(struct ppu_sm *sm, uint32_t lanes)
{
   uint32_t slot = 0;
   while (slot < sm->wg_slots && sm->wg[slot].in_use)
      slot++;
   if (slot == sm->wg_slots)
      return NULL;
   /* The compute launch takes the first free slot (this one) and makes
    * every lane of the 32-thread workgroup live; the engine narrows it. */
   ppu_sm_launch_workgroup(sm, 0);
   struct ppu_warp *w = &sm->warp[sm->wg[slot].first_warp];
   w->live = lanes;
   w->active = lanes;
   return w;
}

bool ppu_sm_run_until_idle(struct ppu_sm *sm, struct ppu_grid *g)
{
   while (ppu_sm_busy(sm)) {
      ppu_sm_step(sm, g);
      if (ppu_grid_aborted(g))
         return false;
   }
   return true;
}
