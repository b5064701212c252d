/* Program descriptors (docs/graphics-hw.md "Program descriptor"): read at
 * DRAW and checked like a QMD (the shared fields go through
 * ppu_qmd_validate as a QMD of one 32-thread workgroup), then made into
 * the grid whose one-warp workgroups the graphics engine launches.
 */
#ifndef PPU_GRAPHICS_PROGRAM_H
#define PPU_GRAPHICS_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "compute/compute_engine.h"
#include "ppu/graphics.h"

/* Registers a fragment program's launch and outputs use (docs/graphics-hw.md
 * "Fragment work"): R0..R7 at launch; colors R(4i).., depth R32, sample
 * mask R33 and the coverage that survives discard in R34 at EXIT. */
#define PPU_GFX_FRAGMENT_DEPTH_REG 32u
#define PPU_GFX_FRAGMENT_SAMPLE_MASK_REG 33u
#define PPU_GFX_FRAGMENT_COVERAGE_REG 34u
#define PPU_GFX_VERTEX_LAUNCH_REGS 7u   /* R0..R6 */
#define PPU_GFX_FRAGMENT_LAUNCH_REGS 8u /* R0..R7 */

struct gfx_program {
   struct ppu_gfx_program desc;
   struct ppu_grid *grid; /* NULL: no program */
};

/* Reads and checks the descriptor at va (fragment: a fragment program) and
 * builds its grid with the watchdog budget of the configuration. False
 * with *fault (BAD_METHOD_DATA naming the field, or the MMU fault). */
bool gfx_program_load(struct ppu_compute_engine *ce, struct ppu_mmu_client *mmu, uint64_t pd_pa,
                      uint64_t va, bool fragment, struct gfx_program *p, struct ppu_fault *fault);
void gfx_program_release(struct gfx_program *p);

#endif
