/* GPU memory objects (drv_bo): physical VRAM mapped at a GPU virtual address,
 * with a host pointer through the BAR when the pages are contiguous.
 *
 * Everything the GPU reads or writes is a drv_bo: VkDeviceMemory, pushbuffer
 * chunks, GPFIFO rings, semaphore slots, query records.
 *
 * Thread-safe (takes the device's memory lock). */
#ifndef DRV_GPU_MEMORY_H
#define DRV_GPU_MEMORY_H

#include <stdint.h>

#include "drv_result.h"

struct drv_device;

enum drv_bo_flags {
   /* Physically contiguous, so bar + pa is one host pointer for the whole
    * object (needed for host mapping). Without it, large objects may be
    * assembled from several physical ranges when VRAM is fragmented. */
   DRV_BO_HOST_MAPPED = 1u << 0,
   /* VA from the driver-internal region instead of the application's. */
   DRV_BO_INTERNAL = 1u << 1,
};

struct drv_phys_range {
   uint64_t pa;
   uint64_t size;
};

struct drv_bo {
   uint64_t va;
   uint64_t size;  /* bytes, a multiple of the page size */
   uint8_t *map;   /* host pointer (DRV_BO_HOST_MAPPED), else NULL */
   uint32_t flags; /* enum drv_bo_flags */
   uint32_t range_count;
   struct drv_phys_range *ranges; /* &single_range when range_count == 1 */
   struct drv_phys_range single_range;
};

/* Allocates `size` bytes (rounded up to whole pages), zero-filled. With
 * fixed_va != 0 the object is placed exactly there (capture/replay). */
enum drv_result drv_bo_create(struct drv_device *dev, uint64_t size, uint32_t flags,
                              uint64_t fixed_va, struct drv_bo **out);
/* Unmaps (later GPU access faults), then frees VA and VRAM. */
void drv_bo_destroy(struct drv_device *dev, struct drv_bo *bo);

#endif
