/* MMU: page walk (ppu/mmu_format.h), per-client TLBs, and translated memory
 * operations. See docs/memory.md for the format and the TLB rules. */
#include "mmu.h"

#include <assert.h>
#include <string.h>

#include "fault.h"
#include "ppu/mmu_format.h"

/* The level-0 directory has 1024 entries of 8 bytes (mmu_format.h). */
#define PPU_PT_L0_BYTES (PPU_PT_L0_ENTRIES * 8ull)

/* Page-table entries are read with 64-bit atomic loads: the host may be
 * rewriting them through the BAR while the walk runs, and a torn entry could
 * combine the VALID bit of one value with the address of another. */
_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t) &&
                   _Alignof(_Atomic uint64_t) == _Alignof(uint64_t),
               "page-table entries are read in place as _Atomic uint64_t");

void ppu_mmu_init(struct ppu_mmu *mmu, const struct ppu_vram *vram,
                  struct ppu_counter_block *counters)
{
   mmu->vram = vram;
   mmu->counters = counters;
   atomic_init(&mmu->invalidate_epoch, 0);
}

void ppu_mmu_client_init(struct ppu_mmu_client *c, struct ppu_mmu *mmu, enum ppu_engine engine)
{
   memset(c, 0, sizeof(*c));
   c->mmu = mmu;
   c->engine = engine;
   c->counters = mmu->counters;
   c->epoch = atomic_load_explicit(&mmu->invalidate_epoch, memory_order_acquire);
   c->tlb_entries = PPU_TLB_ENTRIES;
}

void ppu_mmu_client_set_tlb_entries(struct ppu_mmu_client *c, uint32_t entries)
{
   assert(entries >= 1 && entries <= PPU_TLB_ENTRIES_MAX && !(entries & (entries - 1)));
   memset(c->tlb, 0, sizeof(c->tlb));
   c->tlb_entries = entries;
}

void ppu_mmu_invalidate_all(struct ppu_mmu *mmu)
{
   /* Release: page-table writes the host made before invalidating are
    * visible to a walk that starts after the client sees the new epoch. */
   atomic_fetch_add_explicit(&mmu->invalidate_epoch, 1, memory_order_release);
}

bool ppu_mmu_directory_ok(const struct ppu_mmu *mmu, uint64_t pd_pa)
{
   return (pd_pa & PPU_PAGE_MASK) == 0 && ppu_vram_contains(mmu->vram, pd_pa, PPU_PT_L0_BYTES);
}

static uint64_t read_entry(const struct ppu_mmu *mmu, uint64_t entry_pa)
{
   _Atomic uint64_t *p = (_Atomic uint64_t *)(void *)(mmu->vram->base + entry_pa);
   return atomic_load_explicit(p, memory_order_relaxed);
}

static const struct {
   unsigned shift, entries;
} walk_levels[3] = {
    {PPU_PT_L0_SHIFT, PPU_PT_L0_ENTRIES},
    {PPU_PT_L1_SHIFT, PPU_PT_L1_ENTRIES},
    {PPU_PT_L2_SHIFT, PPU_PT_L2_ENTRIES},
};

/* Walks the three levels for va; *leaf gets the level-2 entry. */
static bool mmu_walk(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, bool write,
                     uint64_t *leaf, struct ppu_fault *fault)
{
   struct ppu_mmu *mmu = c->mmu;
   ppu_counter_add(c->counters, PPU_COUNTER_MMU_PAGE_WALKS, 1);
   if (!ppu_mmu_directory_ok(mmu, pd_pa)) {
      ppu_fault_set_mmu(fault, PPU_FAULT_MMU_BAD_PTE, c->engine, va, write,
                        "level-0 directory PA 0x%llx is misaligned or outside VRAM",
                        (unsigned long long)pd_pa);
      return false;
   }
   uint64_t table = pd_pa, entry = 0;
   for (unsigned level = 0; level < 3; level++) {
      uint64_t index = (va >> walk_levels[level].shift) & (walk_levels[level].entries - 1);
      uint64_t entry_pa = table + index * 8;
      entry = read_entry(mmu, entry_pa);
      /* An entry without VALID is unmapped whatever its other bits hold:
       * drivers may leave stale addresses in entries they cleared. */
      if (!(entry & PPU_PTE_VALID)) {
         ppu_fault_set_mmu(fault, PPU_FAULT_MMU_UNMAPPED, c->engine, va, write,
                           "level-%u entry %llu (PA 0x%llx) is not valid", level,
                           (unsigned long long)index, (unsigned long long)entry_pa);
         return false;
      }
      if (entry & PPU_PTE_RSVD_MASK) {
         ppu_fault_set_mmu(fault, PPU_FAULT_MMU_BAD_PTE, c->engine, va, write,
                           "level-%u entry %llu = 0x%016llx has reserved bits 0x%016llx set", level,
                           (unsigned long long)index, (unsigned long long)entry,
                           (unsigned long long)(entry & PPU_PTE_RSVD_MASK));
         return false;
      }
      uint64_t next = entry & PPU_PTE_ADDR_MASK;
      if (!ppu_vram_contains(mmu->vram, next, PPU_PAGE_SIZE)) {
         ppu_fault_set_mmu(fault, PPU_FAULT_MMU_BAD_PTE, c->engine, va, write,
                           "level-%u entry %llu points at PA 0x%llx outside VRAM (0x%llx bytes)",
                           level, (unsigned long long)index, (unsigned long long)next,
                           (unsigned long long)mmu->vram->size);
         return false;
      }
      table = next;
   }
   *leaf = entry;
   return true;
}

/* Finds the leaf entry for va, from the TLB or by walking. A probe (a look
 * ahead to extend a run) does not count its fault: the access it would fault
 * has not been made, and is counted when it is. */
static bool mmu_lookup(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, bool write,
                       bool probe, uint64_t *leaf, struct ppu_fault *fault)
{
   struct ppu_mmu *mmu = c->mmu;
   if (va >> PPU_VA_BITS) {
      ppu_fault_set_mmu(fault, PPU_FAULT_MMU_UNMAPPED, c->engine, va, write,
                        "VA is beyond the %u-bit address space", PPU_VA_BITS);
      goto fail;
   }
   /* mmu_format.h: VA 0 is never mapped, so a null device address always
    * faults even if the tables map page 0. */
   if ((va >> PPU_PAGE_SHIFT) == 0) {
      ppu_fault_set_mmu(fault, PPU_FAULT_MMU_UNMAPPED, c->engine, va, write,
                        "VA page 0 is never mapped (null device address)");
      goto fail;
   }
   uint64_t epoch = atomic_load_explicit(&mmu->invalidate_epoch, memory_order_acquire);
   if (epoch != c->epoch) {
      /* Only the entries in use can hold anything. */
      memset(c->tlb, 0, c->tlb_entries * sizeof(c->tlb[0]));
      c->epoch = epoch;
   }
   uint64_t vpn = va >> PPU_PAGE_SHIFT;
   struct ppu_tlb_entry *slot = ppu_mmu_tlb_slot(c, pd_pa, vpn);
   if (slot->pte && slot->vpn == vpn && slot->pd_pa == pd_pa) {
      ppu_counter_add(c->counters, PPU_COUNTER_MMU_TLB_HITS, 1);
      *leaf = slot->pte;
   } else {
      ppu_counter_add(c->counters, PPU_COUNTER_MMU_TLB_MISSES, 1);
      /* Failed walks are not cached: the driver may fix the entry and
       * resubmit without invalidating. */
      if (!mmu_walk(c, pd_pa, va, write, leaf, fault))
         goto fail;
      slot->vpn = vpn;
      slot->pd_pa = pd_pa;
      slot->pte = *leaf;
   }
   if (write && !(*leaf & PPU_PTE_WRITABLE)) {
      ppu_fault_set_mmu(fault, PPU_FAULT_MMU_WRITE_PROTECT, c->engine, va, write,
                        "page PA 0x%llx is mapped read-only",
                        (unsigned long long)(*leaf & PPU_PTE_ADDR_MASK));
      goto fail;
   }
   return true;
fail:
   if (!probe)
      ppu_counter_add(c->counters, PPU_COUNTER_MMU_FAULTS, 1);
   return false;
}

bool ppu_mmu_translate(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, bool write,
                       uint64_t *pa, struct ppu_fault *fault)
{
   uint64_t leaf;
   if (!mmu_lookup(c, pd_pa, va, write, false, &leaf, fault))
      return false;
   *pa = (leaf & PPU_PTE_ADDR_MASK) | (va & PPU_PAGE_MASK);
   return true;
}

bool ppu_mmu_translate_run(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, uint64_t max_len,
                           bool write, uint64_t *pa, uint64_t *run, struct ppu_fault *fault)
{
   uint64_t first;
   if (!ppu_mmu_translate(c, pd_pa, va, write, &first, fault))
      return false;
   uint64_t len = PPU_PAGE_SIZE - (va & PPU_PAGE_MASK);
   if (len > max_len)
      len = max_len;
   /* Every page added to the run was translated, so va + len stays inside
    * the 40-bit space and cannot wrap. */
   while (len < max_len) {
      uint64_t leaf;
      struct ppu_fault ignored;
      if (!mmu_lookup(c, pd_pa, va + len, write, true, &leaf, &ignored))
         break;
      if ((leaf & PPU_PTE_ADDR_MASK) != first + len)
         break;
      uint64_t step = max_len - len < PPU_PAGE_SIZE ? max_len - len : PPU_PAGE_SIZE;
      len += step;
   }
   *pa = first;
   *run = len;
   return true;
}

bool ppu_mmu_read(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, void *dst, uint64_t len,
                  struct ppu_fault *fault)
{
   uint8_t *out = dst;
   while (len) {
      uint64_t pa, run;
      if (!ppu_mmu_translate_run(c, pd_pa, va, len, false, &pa, &run, fault))
         return false;
      memcpy(out, ppu_mmu_host_ptr(c->mmu, pa), (size_t)run);
      out += run;
      va += run;
      len -= run;
   }
   return true;
}

bool ppu_mmu_write(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, const void *src,
                   uint64_t len, struct ppu_fault *fault)
{
   const uint8_t *in = src;
   while (len) {
      uint64_t pa, run;
      if (!ppu_mmu_translate_run(c, pd_pa, va, len, true, &pa, &run, fault))
         return false;
      memcpy(ppu_mmu_host_ptr(c->mmu, pa), in, (size_t)run);
      in += run;
      va += run;
      len -= run;
   }
   return true;
}

bool ppu_mmu_copy(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t dst_va, uint64_t src_va,
                  uint64_t len, struct ppu_fault *fault)
{
   /* Each side keeps its current contiguous run until it is used up, so a
    * long run on one side is translated once however fragmented the other
    * side is. */
   uint64_t src_pa = 0, src_left = 0, dst_pa = 0, dst_left = 0;
   while (len) {
      if (!src_left &&
          !ppu_mmu_translate_run(c, pd_pa, src_va, len, false, &src_pa, &src_left, fault))
         return false;
      if (!dst_left &&
          !ppu_mmu_translate_run(c, pd_pa, dst_va, len, true, &dst_pa, &dst_left, fault))
         return false;
      uint64_t n = src_left < dst_left ? src_left : dst_left;
      /* memmove, not memcpy: two different VAs may alias one physical page,
       * and memory contents must never cause undefined behaviour. */
      memmove(ppu_mmu_host_ptr(c->mmu, dst_pa), ppu_mmu_host_ptr(c->mmu, src_pa), (size_t)n);
      src_va += n, src_pa += n, src_left -= n;
      dst_va += n, dst_pa += n, dst_left -= n;
      len -= n;
   }
   return true;
}

static void fill_words(uint8_t *p, uint32_t pattern, uint64_t len)
{
   uint8_t b = (uint8_t)pattern;
   if (pattern == b * 0x01010101u) {
      memset(p, b, (size_t)len);
      return;
   }
   /* p is 4-byte aligned: VRAM is page aligned and the VA was checked to be a
    * multiple of 4. */
   uint32_t *w = (uint32_t *)(void *)p;
   for (uint64_t i = 0; i < len / 4; i++)
      w[i] = pattern;
}

bool ppu_mmu_fill32(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t dst_va, uint32_t pattern,
                    uint64_t len, struct ppu_fault *fault)
{
   while (len) {
      uint64_t pa, run;
      if (!ppu_mmu_translate_run(c, pd_pa, dst_va, len, true, &pa, &run, fault))
         return false;
      fill_words(ppu_mmu_host_ptr(c->mmu, pa), pattern, run);
      dst_va += run;
      len -= run;
   }
   return true;
}
