/* See va_access.h. */
#include "va_access.h"

#include <string.h>

#include "drv_device.h"
#include "ppu/mmu_format.h"

static bool table_entry(const struct drv_device *dev, uint64_t table_pa, uint32_t index,
                        uint64_t *entry)
{
   uint64_t pa = table_pa + (uint64_t)index * sizeof(uint64_t);
   if (pa + sizeof(uint64_t) > dev->vram.size)
      return false;
   memcpy(entry, dev->bar + pa, sizeof(*entry));
   return (*entry & PPU_PTE_VALID) && !(*entry & PPU_PTE_RSVD_MASK);
}

/* The physical address of `va`'s page, as the MMU's three-level walk finds
 * it; false where the chip would fault. Called with mm_lock held. */
static bool translate(const struct drv_device *dev, uint64_t va, bool write, uint64_t *page_pa)
{
   if (va < PPU_PAGE_SIZE || va >= (1ull << PPU_VA_BITS))
      return false;
   uint64_t e;
   if (!table_entry(dev, dev->as.l0_pa, PPU_PT_L0_INDEX(va), &e) ||
       !table_entry(dev, e & PPU_PTE_ADDR_MASK, PPU_PT_L1_INDEX(va), &e) ||
       !table_entry(dev, e & PPU_PTE_ADDR_MASK, PPU_PT_L2_INDEX(va), &e))
      return false;
   if (write && !(e & PPU_PTE_WRITABLE))
      return false;
   uint64_t pa = e & PPU_PTE_ADDR_MASK;
   if (pa + PPU_PAGE_SIZE > dev->vram.size)
      return false;
   *page_pa = pa;
   return true;
}

/* Walks [va, va + size) page by page; with `copy` set, copies between the
 * host buffer and VRAM (direction by `write`). */
static bool walk(struct drv_device *dev, uint64_t va, uint8_t *host, uint64_t size, bool write,
                 bool copy, uint64_t *bad_va)
{
   if (size && va + size < va) {
      if (bad_va)
         *bad_va = va;
      return false;
   }
   uint64_t done = 0;
   while (done < size) {
      uint64_t at = va + done;
      uint64_t in_page = PPU_PAGE_SIZE - (at & PPU_PAGE_MASK);
      uint64_t n = size - done < in_page ? size - done : in_page;
      uint64_t pa;
      if (!translate(dev, at, write, &pa)) {
         if (bad_va)
            *bad_va = at;
         return false;
      }
      if (copy) {
         uint8_t *vram = dev->bar + pa + (at & PPU_PAGE_MASK);
         if (write)
            memcpy(vram, host + done, n);
         else
            memcpy(host + done, vram, n);
      }
      done += n;
   }
   return true;
}

bool drv_va_read(struct drv_device *dev, uint64_t va, void *dst, uint64_t size, uint64_t *bad_va)
{
   pthread_mutex_lock(&dev->mm_lock);
   bool ok = walk(dev, va, dst, size, false, true, bad_va);
   pthread_mutex_unlock(&dev->mm_lock);
   return ok;
}

bool drv_va_write(struct drv_device *dev, uint64_t va, const void *src, uint64_t size,
                  uint64_t *bad_va)
{
   pthread_mutex_lock(&dev->mm_lock);
   /* Check first so that a bad range writes nothing. */
   bool ok = walk(dev, va, NULL, size, true, false, bad_va) &&
             walk(dev, va, (uint8_t *)(uintptr_t)src, size, true, true, bad_va);
   pthread_mutex_unlock(&dev->mm_lock);
   return ok;
}
