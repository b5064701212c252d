/* The TTU's unified intersection datapath in the timing mode
 * (unified-box-triangle-datapath seed): one pipeline of `stages` stages
 * that accepts, each cycle, either `box_per_cycle` ray-box tests or
 * `tri_per_cycle` ray-triangle tests ("four box tests per cycle or one
 * triangle test per cycle"; the sideband storage of the control unit is
 * what lets three box results wait for the fourth, so the four leave
 * together). A cycle holds one kind only; changing kind costs
 * `switch_penalty` issue cycles while the control unit sets the mux layers
 * for the other kind (an assumption: the seed switches stage by stage and
 * gives no figure). A test's result leaves `stages` cycles after it
 * entered. Shared by every ray of the SM's TTU. */
#ifndef PPU_TIMING_TTU_DATAPATH_H
#define PPU_TIMING_TTU_DATAPATH_H

#include <stdint.h>

struct ppu_ttu_datapath {
   uint32_t box_per_cycle, tri_per_cycle;
   uint32_t stages;
   uint32_t switch_penalty;
   uint64_t next_free; /* first cycle the input accepts tests again */
};

void ppu_ttu_datapath_init(struct ppu_ttu_datapath *dp, uint32_t box_per_cycle,
                           uint32_t tri_per_cycle, uint32_t stages, uint32_t switch_penalty);

/* Issue cycles a batch takes: its box tests, its triangle tests and its
 * switches between the two. */
uint64_t ppu_ttu_datapath_issue_cycles(const struct ppu_ttu_datapath *dp, uint64_t boxes,
                                       uint64_t tris, uint64_t switches);

/* Feeds a batch that is ready at cycle now, behind whatever the datapath
 * already accepted. Returns the cycle the batch's last result leaves the
 * pipeline (now when the batch is empty); *busy gets its issue cycles. */
uint64_t ppu_ttu_datapath_run(struct ppu_ttu_datapath *dp, uint64_t now, uint64_t boxes,
                              uint64_t tris, uint64_t switches, uint64_t *busy);

#endif /* PPU_TIMING_TTU_DATAPATH_H */
