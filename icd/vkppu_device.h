/* Device-level helpers shared by the device-level API files (device.c,
 * queue.c, memory.c, command_buffer.c, ...): allocation with the right
 * callbacks, driver-result translation and the device-lost check. */
#ifndef VKPPU_DEVICE_H
#define VKPPU_DEVICE_H

#include <stdbool.h>
#include <string.h>

#include "debug_report.h"
#include "drv_result.h"
#include "vkppu_alloc.h"
#include "vkppu_instance.h"

VKPPU_DEFINE_HANDLE_CASTS(vkppu_device, VkDevice)

/* Heap accounting for vkAllocateMemory (memory.c); lives next to the
 * device because every allocation of the device updates it. */
struct vkppu_heap_usage {
   pthread_mutex_t lock;
   VkDeviceSize used[VKPPU_MAX_MEMORY_HEAPS];
};

/* What device.c allocates: the shared struct vkppu_device first (so a
 * VkDevice handle is a struct vkppu_device * for every other file), then the
 * state only the device-level files use. */
struct vkppu_device_impl {
   struct vkppu_device pub;
   struct vkppu_heap_usage heaps;
};

static inline struct vkppu_device_impl *vkppu_device_impl(struct vkppu_device *dev)
{
   return (struct vkppu_device_impl *)(void *)dev;
}

/* Zeroed memory for a device-level object: pAllocator if given, else the
 * device's callbacks (Vulkan spec, "Memory Allocation"). */
static inline void *vkppu_device_zalloc(struct vkppu_device *dev,
                                        const VkAllocationCallbacks *pAllocator, size_t size,
                                        VkSystemAllocationScope scope)
{
   void *p = vkppu_alloc(vkppu_choose_alloc(pAllocator, &dev->alloc), size, 8, scope);
   if (p)
      memset(p, 0, size);
   return p;
}

static inline void vkppu_device_free(struct vkppu_device *dev,
                                     const VkAllocationCallbacks *pAllocator, void *p)
{
   vkppu_free(vkppu_choose_alloc(pAllocator, &dev->alloc), p);
}

VkResult vkppu_result_from_drv(enum drv_result r);

/* VK_ERROR_DEVICE_LOST once the device is lost, else VK_SUCCESS. The first
 * call that observes the loss passes the driver's fault report to the
 * application's debug messengers (on the application's own thread). */
VkResult vkppu_device_check_lost(struct vkppu_device *dev);

/* Translates a driver result; DRV_ERROR_DEVICE_LOST also reports the fault. */
VkResult vkppu_device_result(struct vkppu_device *dev, enum drv_result r);

#endif
