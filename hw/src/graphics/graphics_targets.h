/* Render targets in GPU memory (docs/graphics-hw.md "Render-target
 * group"): each bound target is checked (rop_surface_init), translated
 * through the MMU for writing over its whole extent, and handed to the
 * ROP as host memory: the VRAM itself, as one range when the target is
 * physically contiguous and as a table of its pages otherwise (no copy);
 * only a target whose texels could straddle a page (a texel size that
 * does not divide 4 KiB, or a VA not aligned to it) is copied to host
 * memory and written back when the action ends. Every page is translated for writing before
 * anything is drawn, so an unmapped or read-only target faults the channel (the MMU's fault, engine
 * GRAPHICS) with nothing written.
 */
#ifndef PPU_GRAPHICS_TARGETS_H
#define PPU_GRAPHICS_TARGETS_H

#include <stdbool.h>
#include <stdint.h>

#include "mmu.h"
#include "raster/graphics_state.h"
#include "rop/rop_surface.h"

struct gfx_target {
   bool bound;
   struct rop_surface surface;
   uint64_t va, size;
   uint8_t **pages;  /* host address of each page (scattered targets); NULL otherwise */
   uint8_t *staging; /* host copy (texels that may straddle pages); NULL otherwise */
};

/* Checks the target group at `base` (a COLOR/DEPTH/RESOLVE target) with
 * samples_log2 and maps its layer LAYER + `layer` (a primitive's layer
 * word; 0 elsewhere). A group whose FORMAT is INVALID gives an unbound
 * target (true). `what` names it in faults. */
bool gfx_target_map(struct ppu_mmu_client *mmu, uint64_t pd_pa, const struct ppu_graphics_state *s,
                    uint32_t base, uint32_t layer, unsigned samples_log2, const char *what,
                    struct gfx_target *t, struct ppu_fault *fault);

/* Writes a staged target back (when write_back) and releases it. False
 * with *fault when the write-back faults. */
bool gfx_target_unmap(struct ppu_mmu_client *mmu, uint64_t pd_pa, struct gfx_target *t,
                      bool write_back, struct ppu_fault *fault);

#endif
