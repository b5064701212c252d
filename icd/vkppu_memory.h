/* VkDeviceMemory and VkBuffer. A memory object is one drv_bo (GPU VA + VRAM,
 * driver/gpu_memory.h); a buffer is a range of one, so its GPU address is
 * the memory's VA plus the bind offset. */
#ifndef VKPPU_MEMORY_H
#define VKPPU_MEMORY_H

#include "vkppu_device.h"

struct drv_bo;

struct vkppu_device_memory {
   struct vkppu_object base;
   struct drv_bo *bo;
   VkDeviceSize size; /* allocationSize as asked */
   uint32_t type_index;
   uint32_t heap_index;
   VkMemoryPropertyFlags properties;
   void *mapped; /* the pointer vkMapMemory returned, NULL when not mapped */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_device_memory, VkDeviceMemory)

struct vkppu_buffer {
   struct vkppu_object base;
   VkDeviceSize size;
   VkBufferUsageFlags usage;
   VkBufferCreateFlags flags;
   struct vkppu_device_memory *memory; /* NULL until bound */
   VkDeviceSize offset;
   uint64_t va; /* GPU address of byte 0, 0 until bound */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_buffer, VkBuffer)

/* GPU address of a byte of a buffer (commands use it). */
static inline uint64_t vkppu_buffer_address(VkBuffer buffer, VkDeviceSize offset)
{
   return vkppu_buffer_from_handle(buffer)->va + offset;
}

#endif
