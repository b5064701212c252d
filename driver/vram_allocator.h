/* Physical VRAM pages: which of [0, vram_size) are in use.
 *
 * The driver owns physical allocation, as a kernel-mode driver does on real
 * hardware. Freed pages are handed back to the host with
 * ppu_gpu_vram_discard() (they then read as zero), so a long-running process
 * does not keep memory it has freed, and a new allocation never sees an old
 * one's contents.
 *
 * Not thread-safe: drv_device serializes calls with its memory lock. */
#ifndef DRV_VRAM_ALLOCATOR_H
#define DRV_VRAM_ALLOCATOR_H

#include <stdint.h>

#include "drv_result.h"
#include "extent_allocator.h"

struct ppu_gpu;

struct vram_allocator {
   struct ppu_gpu *gpu;
   uint64_t size;
   struct extent_allocator free_pages;
};

enum drv_result vram_allocator_init(struct vram_allocator *v, struct ppu_gpu *gpu,
                                    uint64_t vram_size);
void vram_allocator_finish(struct vram_allocator *v);

/* `size` bytes (a multiple of the page size) of physically contiguous VRAM. */
enum drv_result vram_alloc(struct vram_allocator *v, uint64_t size, uint64_t *out_pa);
/* Discards the pages and makes them available again. */
void vram_free(struct vram_allocator *v, uint64_t pa, uint64_t size);

uint64_t vram_free_bytes(const struct vram_allocator *v);
uint64_t vram_largest_free_range(const struct vram_allocator *v);

#endif
