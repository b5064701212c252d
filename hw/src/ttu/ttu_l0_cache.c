/* See ttu_l0_cache.h. */
#include "ttu/ttu_l0_cache.h"

#include <assert.h>
#include <string.h>

#include "ppu/mmu_format.h"

void ppu_ttu_l0_init(struct ppu_ttu_l0_cache *c, struct ppu_mmu_client *mmu,
                     struct ppu_counter_block *counters, uint32_t lines)
{
   assert(lines >= 1 && lines <= PPU_TTU_L0_LINES_MAX);
   memset(c, 0, sizeof(*c));
   c->mmu = mmu;
   c->counters = counters;
   c->lines = lines;
}

void ppu_ttu_l0_flush(struct ppu_ttu_l0_cache *c)
{
   memset(c->line_va, 0, sizeof(c->line_va));
   memset(c->last_use, 0, sizeof(c->last_use));
}

/* Looks up one line and allocates it on a miss (least recently used entry,
 * empty entries first since their last_use is 0; of equal last_use the
 * lowest index). The hit search and the victim search are separate loops:
 * the hit search has no dependency from one line to the next, and a
 * victim is only chosen on a miss. */
static void lookup(struct ppu_ttu_l0_cache *c, uint64_t line_va)
{
   c->clock++;
   for (unsigned i = 0; i < c->lines; i++) {
      if (c->line_va[i] == line_va) {
         c->last_use[i] = c->clock;
         ppu_counter_add(c->counters, PPU_COUNTER_TTU_L0_HITS, 1);
         return;
      }
   }
   unsigned victim = 0;
   uint64_t oldest = c->last_use[0];
   for (unsigned i = 1; i < c->lines; i++) {
      if (c->last_use[i] < oldest) {
         oldest = c->last_use[i];
         victim = i;
      }
   }
   c->line_va[victim] = line_va;
   c->last_use[victim] = c->clock;
   ppu_counter_add(c->counters, PPU_COUNTER_TTU_L0_MISSES, 1);
   if (c->miss_log)
      ppu_line_log_add(c->miss_log, line_va);
}

bool ppu_ttu_l0_read(struct ppu_ttu_l0_cache *c, uint64_t pd_pa, uint64_t va, void *dst,
                     uint32_t len, struct ppu_fault *fault)
{
   if (len && (va & PPU_PAGE_MASK) + len <= PPU_PAGE_SIZE) {
      /* Within one page (every node, record and header the builder
       * aligns): one translation, as ppu_mmu_read makes for it, and the
       * copy straight from VRAM. */
      uint64_t pa;
      if (!ppu_mmu_translate_read(c->mmu, pd_pa, va, &pa, fault))
         return false;
      const uint8_t *src = ppu_mmu_host_ptr(c->mmu->mmu, pa);
      /* Nodes and triangle records: copies of a known size, inlined. */
      if (len == PPU_TTU_L0_LINE_BYTES)
         memcpy(dst, src, PPU_TTU_L0_LINE_BYTES);
      else if (len == PPU_TTU_L0_LINE_BYTES / 2)
         memcpy(dst, src, PPU_TTU_L0_LINE_BYTES / 2);
      else
         memcpy(dst, src, len);
   } else if (!ppu_mmu_read(c->mmu, pd_pa, va, dst, len, fault)) {
      return false;
   }
   uint64_t first = va & ~(uint64_t)(PPU_TTU_L0_LINE_BYTES - 1);
   for (uint64_t line = first; line < va + len; line += PPU_TTU_L0_LINE_BYTES)
      lookup(c, line);
   return true;
}
