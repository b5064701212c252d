/* See ttu_datapath.h. */
#include "timing/ttu_datapath.h"

void ppu_ttu_datapath_init(struct ppu_ttu_datapath *dp, uint32_t box_per_cycle,
                           uint32_t tri_per_cycle, uint32_t stages, uint32_t switch_penalty)
{
   dp->box_per_cycle = box_per_cycle ? box_per_cycle : 1;
   dp->tri_per_cycle = tri_per_cycle ? tri_per_cycle : 1;
   dp->stages = stages ? stages : 1;
   dp->switch_penalty = switch_penalty;
   dp->next_free = 0;
}

uint64_t ppu_ttu_datapath_issue_cycles(const struct ppu_ttu_datapath *dp, uint64_t boxes,
                                       uint64_t tris, uint64_t switches)
{
   return (boxes + dp->box_per_cycle - 1) / dp->box_per_cycle +
          (tris + dp->tri_per_cycle - 1) / dp->tri_per_cycle + switches * dp->switch_penalty;
}

uint64_t ppu_ttu_datapath_run(struct ppu_ttu_datapath *dp, uint64_t now, uint64_t boxes,
                              uint64_t tris, uint64_t switches, uint64_t *busy)
{
   uint64_t cycles = ppu_ttu_datapath_issue_cycles(dp, boxes, tris, switches);
   *busy = cycles;
   if (cycles == 0)
      return now;
   uint64_t start = now > dp->next_free ? now : dp->next_free;
   dp->next_free = start + cycles;
   /* The last test entered at next_free - 1 and leaves `stages` later. */
   return dp->next_free - 1 + dp->stages;
}
