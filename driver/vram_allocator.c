/* See vram_allocator.h. */
#include "vram_allocator.h"

#include <stdio.h>

#include "ppu/gpu.h"
#include "ppu/mmu_format.h"

enum drv_result vram_allocator_init(struct vram_allocator *v, struct ppu_gpu *gpu,
                                    uint64_t vram_size)
{
   v->gpu = gpu;
   v->size = vram_size & ~PPU_PAGE_MASK;
   extent_allocator_init(&v->free_pages, PPU_PAGE_SIZE);
   if (v->size == 0)
      return DRV_ERROR_INITIALIZATION_FAILED;
   return extent_allocator_free(&v->free_pages, 0, v->size) == DRV_SUCCESS
              ? DRV_SUCCESS
              : DRV_ERROR_OUT_OF_HOST_MEMORY;
}

void vram_allocator_finish(struct vram_allocator *v)
{
   extent_allocator_finish(&v->free_pages);
}

enum drv_result vram_alloc(struct vram_allocator *v, uint64_t size, uint64_t *out_pa)
{
   return extent_allocator_alloc(&v->free_pages, size, PPU_PAGE_SIZE, out_pa);
}

void vram_free(struct vram_allocator *v, uint64_t pa, uint64_t size)
{
   ppu_gpu_vram_discard(v->gpu, pa, size);
   enum drv_result r = extent_allocator_free(&v->free_pages, pa, size);
   if (r != DRV_SUCCESS) {
      /* Either a driver bug (double free) or no host memory for the
       * bookkeeping node: the pages stay unusable until the device goes. */
      fprintf(stderr, "vkppu: driver: VRAM [0x%llx, +0x%llx) not returned: %s\n",
              (unsigned long long)pa, (unsigned long long)size, drv_result_name(r));
   }
}

uint64_t vram_free_bytes(const struct vram_allocator *v)
{
   return v->free_pages.free_bytes;
}

uint64_t vram_largest_free_range(const struct vram_allocator *v)
{
   return extent_allocator_largest(&v->free_pages);
}
