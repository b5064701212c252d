/* Render-target mapping through the MMU. */
#include "graphics/graphics_targets.h"

#include <stdlib.h>
#include <string.h>

#include "fault.h"

bool gfx_target_map(struct ppu_mmu_client *mmu, uint64_t pd_pa, const struct ppu_graphics_state *s,
                    uint32_t base, uint32_t layer, unsigned samples_log2, const char *what,
                    struct gfx_target *t, struct ppu_fault *fault)
{
   memset(t, 0, sizeof(*t));
   struct ppu_graphics_target g;
   ppu_graphics_state_target_at(s, base, &g);
   if (g.format == PPU_TEX_FORMAT_INVALID)
      return true;
   if (!rop_surface_init(&t->surface, NULL, g.format, g.layout, g.block_height_log2, g.row_pitch,
                         g.width, g.height, samples_log2)) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "%s: format %u, %ux%u, %ux, row pitch %u cannot be a render target", what,
                    g.format, g.width, g.height, 1u << samples_log2, g.row_pitch);
      return false;
   }
   t->va = g.va + ((uint64_t)g.layer + layer) * g.layer_stride;
   t->size = rop_surface_size(&t->surface);
   /* Translate every page for writing first: a fault leaves memory as it
    * was. One run covering everything means the VRAM can be used as one
    * range; otherwise the ROP gets each page's host address. */
   uint32_t in_page = (uint32_t)(t->va & PPU_PAGE_MASK);
   uint64_t page_count = (in_page + t->size + PPU_PAGE_MASK) >> PPU_PAGE_SHIFT;
   t->pages = malloc(page_count * sizeof(*t->pages));
   if (!t->pages) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "%s: out of host memory for its page table", what);
      return false;
   }
   uint64_t first_pa = 0, done = 0;
   bool contiguous = true;
   while (done < t->size) {
      uint64_t pa, run;
      if (!ppu_mmu_translate_run(mmu, pd_pa, t->va + done, t->size - done, true, &pa, &run,
                                 fault)) {
         free(t->pages);
         t->pages = NULL;
         return false;
      }
      if (done == 0)
         first_pa = pa;
      else
         contiguous = contiguous && pa == first_pa + done;
      /* Pages of this run: the VA page of byte in_page + done onwards. */
      for (uint64_t b = done; b < done + run;) {
         uint64_t page = (in_page + b) >> PPU_PAGE_SHIFT;
         uint64_t page_start = (page << PPU_PAGE_SHIFT) - in_page; /* target offset */
         t->pages[page] = ppu_mmu_host_ptr(mmu->mmu, pa + (page_start - done));
         b = page_start + PPU_PAGE_SIZE;
      }
      done += run;
   }
   uint32_t texel = t->surface.bytes;
   if (contiguous) {
      t->surface.base = ppu_mmu_host_ptr(mmu->mmu, first_pa);
      free(t->pages);
      t->pages = NULL;
   } else if (PPU_PAGE_SIZE % texel == 0 && t->va % texel == 0) {
      t->surface.pages = t->pages;
      t->surface.page_offset = in_page;
   } else {
      free(t->pages);
      t->pages = NULL;
      t->staging = malloc(t->size);
      if (!t->staging) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                       "%s: out of host memory for %llu bytes", what, (unsigned long long)t->size);
         return false;
      }
      if (!ppu_mmu_read(mmu, pd_pa, t->va, t->staging, t->size, fault)) {
         free(t->staging);
         t->staging = NULL;
         return false;
      }
      t->surface.base = t->staging;
   }
   t->bound = true;
   return true;
}

bool gfx_target_unmap(struct ppu_mmu_client *mmu, uint64_t pd_pa, struct gfx_target *t,
                      bool write_back, struct ppu_fault *fault)
{
   bool ok = true;
   if (t->staging && write_back)
      ok = ppu_mmu_write(mmu, pd_pa, t->va, t->staging, t->size, fault);
   free(t->staging);
   free(t->pages);
   memset(t, 0, sizeof(*t));
   return ok;
}
