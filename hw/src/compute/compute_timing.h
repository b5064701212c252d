/* The compute engine in the timing mode: the loop that runs a grid's SMs
 * cycle by cycle on one host thread (compute_timing.c, docs/timing.md). */
#ifndef PPU_COMPUTE_TIMING_H
#define PPU_COMPUTE_TIMING_H

#include "compute/compute_engine.h"

/* Runs the grid to its end (or its first fault) and adds its cycles to
 * timing.chip_cycles. The caller is the engine's only worker. */
void ppu_compute_run_grid_timed(struct ppu_compute_engine *ce, struct ppu_grid *grid);

#endif /* PPU_COMPUTE_TIMING_H */
