/* VRAM backing store. */
#include "vram.h"

#include <errno.h>
#include <sys/mman.h>

#include "ppu/mmu_format.h"

int ppu_vram_init(struct ppu_vram *vram, uint64_t size)
{
   vram->base = NULL;
   vram->size = 0;
   if (size == 0 || (size & PPU_PAGE_MASK) || size > (uint64_t)SIZE_MAX)
      return EINVAL;
   /* MAP_NORESERVE: gigabytes of modeled VRAM cost host memory only for the
    * pages that are written, so the default 8 GiB part fits any host. */
   void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
   if (p == MAP_FAILED)
      return errno;
   vram->base = p;
   vram->size = size;
   return 0;
}

void ppu_vram_finish(struct ppu_vram *vram)
{
   if (vram->base)
      munmap(vram->base, (size_t)vram->size);
   vram->base = NULL;
   vram->size = 0;
}

void ppu_vram_discard(struct ppu_vram *vram, uint64_t pa, uint64_t size)
{
   /* Round inward: a partial page at either end still holds live data. */
   uint64_t start = (pa + PPU_PAGE_MASK) & ~PPU_PAGE_MASK;
   if (start < pa || start >= vram->size)
      return;
   uint64_t end = size > vram->size - pa ? vram->size : pa + size;
   end &= ~PPU_PAGE_MASK;
   if (end <= start)
      return;
   /* On a private anonymous mapping MADV_DONTNEED frees the pages and later
    * reads see zero-filled pages, which is what the contract promises. */
   madvise(vram->base + start, (size_t)(end - start), MADV_DONTNEED);
}
