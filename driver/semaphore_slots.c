/* See semaphore_slots.h. */
#include "semaphore_slots.h"

#include <stdlib.h>

#include "drv_device.h"
#include "gpu_memory.h"
#include "ppu/mmu_format.h"

#define SLOTS_PER_PAGE ((uint32_t)(PPU_PAGE_SIZE / sizeof(uint64_t)))
#define BITMAP_WORDS (SLOTS_PER_PAGE / 64)

struct drv_slot_page {
   struct drv_bo *bo;
   uint64_t used[BITMAP_WORDS]; /* bit set = slot in use */
   uint32_t used_count;
   struct drv_slot_page *next, *prev; /* all pages of the device */
};

static void unlink_page(struct drv_device *dev, struct drv_slot_page *p)
{
   if (p->prev)
      p->prev->next = p->next;
   else
      dev->slot_pages = p->next;
   if (p->next)
      p->next->prev = p->prev;
}

enum drv_result drv_slot_alloc(struct drv_device *dev, uint64_t initial_value, struct drv_slot *out)
{
   pthread_mutex_lock(&dev->slot_lock);
   struct drv_slot_page *page = dev->slot_pages;
   while (page && page->used_count == SLOTS_PER_PAGE)
      page = page->next;
   if (!page) {
      page = calloc(1, sizeof(*page));
      enum drv_result r = page ? drv_bo_create(dev, PPU_PAGE_SIZE,
                                               DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &page->bo)
                               : DRV_ERROR_OUT_OF_HOST_MEMORY;
      if (r != DRV_SUCCESS) {
         free(page);
         pthread_mutex_unlock(&dev->slot_lock);
         return r;
      }
      page->next = dev->slot_pages;
      if (page->next)
         page->next->prev = page;
      dev->slot_pages = page;
   } else if (page != dev->slot_pages) {
      /* Move a page with room to the front: the next search ends at once. */
      unlink_page(dev, page);
      page->prev = NULL;
      page->next = dev->slot_pages;
      dev->slot_pages->prev = page;
      dev->slot_pages = page;
   }
   uint32_t index = 0;
   for (uint32_t w = 0; w < BITMAP_WORDS; w++) {
      if (page->used[w] != UINT64_MAX) {
         index = w * 64 + (uint32_t)__builtin_ctzll(~page->used[w]);
         break;
      }
   }
   page->used[index / 64] |= 1ull << (index % 64);
   page->used_count++;
   pthread_mutex_unlock(&dev->slot_lock);

   out->page = page;
   out->index = index;
   out->va = page->bo->va + index * sizeof(uint64_t);
   out->host = (uint64_t *)(void *)(page->bo->map + index * sizeof(uint64_t));
   drv_slot_write(out, initial_value);
   return DRV_SUCCESS;
}

void drv_slot_free(struct drv_device *dev, struct drv_slot *slot)
{
   struct drv_slot_page *page = slot->page;
   if (!page)
      return;
   pthread_mutex_lock(&dev->slot_lock);
   page->used[slot->index / 64] &= ~(1ull << (slot->index % 64));
   page->used_count--;
   /* Keep one empty page for reuse; free the others. */
   struct drv_bo *bo_to_free = NULL;
   if (page->used_count == 0 && (page->prev || page->next)) {
      unlink_page(dev, page);
      bo_to_free = page->bo;
      free(page);
   }
   pthread_mutex_unlock(&dev->slot_lock);
   drv_bo_destroy(dev, bo_to_free);
   slot->page = NULL;
   slot->host = NULL;
}

void drv_slot_pages_destroy(struct drv_device *dev)
{
   while (dev->slot_pages) {
      struct drv_slot_page *p = dev->slot_pages;
      dev->slot_pages = p->next;
      drv_bo_destroy(dev, p->bo);
      free(p);
   }
}
