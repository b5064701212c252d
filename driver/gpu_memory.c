/* See gpu_memory.h. */
#include "gpu_memory.h"

#include <stdlib.h>

#include "drv_device.h"
#include "ppu/gpu.h"

/* More physical ranges than this for one object means VRAM is too
 * fragmented to be worth it; report out of device memory instead. */
#define MAX_PHYS_RANGES 4096u

static void free_ranges(struct drv_device *dev, struct drv_bo *bo)
{
   for (uint32_t i = 0; i < bo->range_count; i++)
      vram_free(&dev->vram, bo->ranges[i].pa, bo->ranges[i].size);
   if (bo->ranges != &bo->single_range)
      free(bo->ranges);
   bo->ranges = NULL;
   bo->range_count = 0;
}

/* Called with the memory lock held. Contiguous first; when that fails and
 * the caller allows it, the largest free ranges one after another. */
static enum drv_result alloc_physical(struct drv_device *dev, struct drv_bo *bo)
{
   bo->ranges = &bo->single_range;
   enum drv_result r = vram_alloc(&dev->vram, bo->size, &bo->single_range.pa);
   if (r == DRV_SUCCESS) {
      bo->single_range.size = bo->size;
      bo->range_count = 1;
      return DRV_SUCCESS;
   }
   if ((bo->flags & DRV_BO_HOST_MAPPED) || vram_free_bytes(&dev->vram) < bo->size)
      return DRV_ERROR_OUT_OF_DEVICE_MEMORY;

   uint32_t capacity = 16;
   bo->ranges = malloc(capacity * sizeof(*bo->ranges));
   if (!bo->ranges)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   uint64_t remaining = bo->size;
   while (remaining) {
      if (bo->range_count == MAX_PHYS_RANGES) {
         free_ranges(dev, bo);
         return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
      }
      if (bo->range_count == capacity) {
         struct drv_phys_range *grown = realloc(bo->ranges, 2 * capacity * sizeof(*grown));
         if (!grown) {
            free_ranges(dev, bo);
            return DRV_ERROR_OUT_OF_HOST_MEMORY;
         }
         bo->ranges = grown;
         capacity *= 2;
      }
      uint64_t piece = vram_largest_free_range(&dev->vram);
      if (piece > remaining)
         piece = remaining;
      struct drv_phys_range *range = &bo->ranges[bo->range_count];
      if (piece == 0 || vram_alloc(&dev->vram, piece, &range->pa) != DRV_SUCCESS) {
         free_ranges(dev, bo);
         return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
      }
      range->size = piece;
      bo->range_count++;
      remaining -= piece;
   }
   return DRV_SUCCESS;
}

enum drv_result drv_bo_create(struct drv_device *dev, uint64_t size, uint32_t flags,
                              uint64_t fixed_va, struct drv_bo **out)
{
   if (size == 0 || size > DRV_VA_END)
      return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
   struct drv_bo *bo = calloc(1, sizeof(*bo));
   if (!bo)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   bo->size = (size + PPU_PAGE_MASK) & ~PPU_PAGE_MASK;
   bo->flags = flags;
   enum drv_va_region region = (flags & DRV_BO_INTERNAL) ? DRV_VA_INTERNAL : DRV_VA_USER;

   pthread_mutex_lock(&dev->mm_lock);
   enum drv_result r = alloc_physical(dev, bo);
   if (r != DRV_SUCCESS)
      goto fail_unlock;
   r = address_space_alloc_va(&dev->as, region, bo->size, fixed_va, &bo->va);
   if (r != DRV_SUCCESS)
      goto fail_physical;
   uint64_t offset = 0;
   for (uint32_t i = 0; i < bo->range_count; i++) {
      r = address_space_map(&dev->as, bo->va + offset, bo->ranges[i].pa, bo->ranges[i].size);
      if (r != DRV_SUCCESS) {
         if (offset)
            address_space_unmap(&dev->as, bo->va, offset);
         goto fail_va;
      }
      offset += bo->ranges[i].size;
   }
   pthread_mutex_unlock(&dev->mm_lock);
   if (bo->range_count == 1)
      bo->map = dev->bar + bo->single_range.pa;
   *out = bo;
   return DRV_SUCCESS;

fail_va:
   address_space_free_va(&dev->as, bo->va, bo->size);
fail_physical:
   free_ranges(dev, bo);
fail_unlock:
   pthread_mutex_unlock(&dev->mm_lock);
   free(bo);
   return r;
}

void drv_bo_destroy(struct drv_device *dev, struct drv_bo *bo)
{
   if (!bo)
      return;
   pthread_mutex_lock(&dev->mm_lock);
   /* Order matters: no translation may point at pages that are handed out
    * again, so unmap (which flushes the TLBs) before freeing them. */
   address_space_unmap(&dev->as, bo->va, bo->size);
   address_space_free_va(&dev->as, bo->va, bo->size);
   free_ranges(dev, bo);
   pthread_mutex_unlock(&dev->mm_lock);
   free(bo);
}
