/* Graphics warps on an SM (docs/graphics-hw.md "Vertex work", "Fragment
 * work"). A vertex or fragment program runs as a grid of one-warp
 * workgroups (the program descriptor made into a QMD, so the SM's warp
 * table, scheduler and issue path are the compute ones); the graphics
 * engine launches each warp with the lanes it chooses, writes the launch
 * registers itself and runs the SM until it is idle. A lane that exits
 * keeps its registers until its slot is launched again, so the engine
 * reads a fragment warp's outputs after the run.
 */
#ifndef PPU_COMPUTE_SM_GRAPHICS_H
#define PPU_COMPUTE_SM_GRAPHICS_H

#include <stdbool.h>
#include <stdint.h>

#include "compute/sm.h"

/* Launches one warp of the SM's current grid (a 32-thread workgroup) with
 * `lanes` live and its registers zeroed; NULL when every slot is taken. */
struct ppu_warp *ppu_sm_launch_graphics_warp(struct ppu_sm *sm, uint32_t lanes);

/* Steps the SM until no warp is resident. False when the grid faulted
 * (the grid holds the fault). */
bool ppu_sm_run_until_idle(struct ppu_sm *sm, struct ppu_grid *g);

#endif
