/* The MMU: translates GPU virtual addresses through the page tables of
 * ppu/mmu_format.h, caches translations in one small TLB per client, and
 * offers the engines memory operations (read, write, copy, fill) that go
 * through translation.
 *
 * Nothing here trusts memory: every directory and page PA is checked against
 * VRAM before it is dereferenced, and every failure comes back as a fault
 * record (return value false), never as a host crash.
 *
 * Threading: a client (and its TLB) belongs to one model thread. Only
 * ppu_mmu_invalidate_all may be called from any thread.
 */
#ifndef PPU_MMU_H
#define PPU_MMU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counter_block.h"
#include "ppu/gpu.h"
#include "ppu/mmu_format.h"
#include "vram.h"

/* Direct mapped, indexed by masking, so a size is a power of two. 64
 * entries hold the working set of one copy stream plus a pushbuffer: the
 * size of the clients the configuration does not size (host interface,
 * front end, copy engine). An SM's client takes mmu.tlb_entries, up to
 * PPU_TLB_ENTRIES_MAX; the array is sized for that maximum so a client
 * needs no allocation. */
#define PPU_TLB_ENTRIES 64u
#define PPU_TLB_ENTRIES_MAX 256u

struct ppu_mmu {
   const struct ppu_vram *vram;
   struct ppu_counter_block *counters;
   /* Bumped by every invalidation; clients compare it with the epoch they
    * last flushed at before each lookup. */
   _Atomic uint64_t invalidate_epoch;
};

struct ppu_tlb_entry {
   uint64_t vpn;   /* VA >> PPU_PAGE_SHIFT */
   uint64_t pd_pa; /* address space: level-0 directory PA */
   uint64_t pte;   /* leaf entry as read: page PA | WRITABLE | VALID */
};

/* One requester of translations (an engine's memory port). */
struct ppu_mmu_client {
   struct ppu_mmu *mmu;
   enum ppu_engine engine; /* reported in this client's faults */
   /* Where this client counts TLB hits, misses and walks: the chip's block,
    * or a block of the model thread it runs on (SMs run on worker threads
    * and counter blocks have a single writer each). */
   struct ppu_counter_block *counters;
   uint64_t epoch;
   uint32_t tlb_entries;                          /* in use: a power of two <= the max */
   struct ppu_tlb_entry tlb[PPU_TLB_ENTRIES_MAX]; /* pte == 0: empty */
};

void ppu_mmu_init(struct ppu_mmu *mmu, const struct ppu_vram *vram,
                  struct ppu_counter_block *counters);
/* A client with PPU_TLB_ENTRIES entries. */
void ppu_mmu_client_init(struct ppu_mmu_client *c, struct ppu_mmu *mmu, enum ppu_engine engine);
/* Resizes (and empties) the client's TLB: entries is a power of two,
 * 1 .. PPU_TLB_ENTRIES_MAX (the configuration checked it). */
void ppu_mmu_client_set_tlb_entries(struct ppu_mmu_client *c, uint32_t entries);
/* Drops every client's cached translations (they flush on their next
 * lookup). Any thread. */
void ppu_mmu_invalidate_all(struct ppu_mmu *mmu);

/* True when a level-0 directory at pd_pa is usable: 4 KiB aligned and all
 * of its 8 KiB inside VRAM. */
bool ppu_mmu_directory_ok(const struct ppu_mmu *mmu, uint64_t pd_pa);

/* Host pointer of a PA that translation returned. */
static inline uint8_t *ppu_mmu_host_ptr(const struct ppu_mmu *mmu, uint64_t pa)
{
   return mmu->vram->base + pa;
}

/* Translates va in the address space pd_pa; *pa gets the byte's PA. */
bool ppu_mmu_translate(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, bool write,
                       uint64_t *pa, struct ppu_fault *fault);

/* The TLB entry that caches page vpn of the address space pd_pa. */
static inline struct ppu_tlb_entry *ppu_mmu_tlb_slot(struct ppu_mmu_client *c, uint64_t pd_pa,
                                                     uint64_t vpn)
{
   return &c->tlb[(vpn ^ (pd_pa >> PPU_PAGE_SHIFT)) & (c->tlb_entries - 1)];
}

/* ppu_mmu_translate of a read, with the TLB hit inline: the same result,
 * counters and TLB state, without two calls on the path every TTU fetch
 * takes (a call chain was a tenth of the TTU's instructions). Anything
 * but a plain hit goes to ppu_mmu_translate. */
static inline bool ppu_mmu_translate_read(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va,
                                          uint64_t *pa, struct ppu_fault *fault)
{
   uint64_t vpn = va >> PPU_PAGE_SHIFT;
   if (vpn != 0 && !(va >> PPU_VA_BITS) &&
       atomic_load_explicit(&c->mmu->invalidate_epoch, memory_order_acquire) == c->epoch) {
      const struct ppu_tlb_entry *slot = ppu_mmu_tlb_slot(c, pd_pa, vpn);
      if (slot->pte && slot->vpn == vpn && slot->pd_pa == pd_pa) {
         ppu_counter_add(c->counters, PPU_COUNTER_MMU_TLB_HITS, 1);
         *pa = (slot->pte & PPU_PTE_ADDR_MASK) | (va & PPU_PAGE_MASK);
         return true;
      }
   }
   return ppu_mmu_translate(c, pd_pa, va, false, pa, fault);
}

/* Translates va and extends the result over following pages as long as they
 * are physically contiguous, up to max_len bytes: on success [*pa, *pa +
 * *run) backs [va, va + *run), 0 < *run <= max_len. A fault after the first
 * page just ends the run; it is reported when the caller gets there. */
bool ppu_mmu_translate_run(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, uint64_t max_len,
                           bool write, uint64_t *pa, uint64_t *run, struct ppu_fault *fault);

/* Memory operations between VAs of one address space. Each translates page
 * by page, moves physically contiguous runs with one memmove/memset, and on a
 * fault returns false with the fault filled in; work before the faulting
 * page may have been done. */
bool ppu_mmu_read(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, void *dst, uint64_t len,
                  struct ppu_fault *fault);
bool ppu_mmu_write(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t va, const void *src,
                   uint64_t len, struct ppu_fault *fault);
bool ppu_mmu_copy(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t dst_va, uint64_t src_va,
                  uint64_t len, struct ppu_fault *fault);
/* Writes the 32-bit pattern over [dst_va, dst_va + len); dst_va and len must
 * be multiples of 4 (the caller checks: it is a method-data rule). */
bool ppu_mmu_fill32(struct ppu_mmu_client *c, uint64_t pd_pa, uint64_t dst_va, uint32_t pattern,
                    uint64_t len, struct ppu_fault *fault);

#endif /* PPU_MMU_H */
