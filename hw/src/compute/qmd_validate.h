/* QMD validation (ppu/qmd.h): from the descriptor in memory to a grid. */
#ifndef PPU_COMPUTE_QMD_VALIDATE_H
#define PPU_COMPUTE_QMD_VALIDATE_H

#include <stdbool.h>

#include "compute/grid.h"
#include "ppu/gpu.h"
#include "ppu/qmd.h"

/* Fills the launch-independent fields of *g (sizes, limits, resident
 * workgroups per SM) from q, or a BAD_METHOD_DATA fault. Constant banks,
 * the address space and the shared state are the caller's. */
bool ppu_qmd_validate(const struct ppu_qmd *q, const struct ppu_gpu_config *cfg, struct ppu_grid *g,
                      struct ppu_fault *fault);

#endif /* PPU_COMPUTE_QMD_VALIDATE_H */
