/* VkDeviceMemory: allocation against the heap budgets, host mapping through
 * the BAR, device addresses, and the device-group queries of a one-device
 * group. Every allocation is zero-filled VRAM (freed VRAM is discarded,
 * driver/vram_allocator.h), so no application sees another's data. */
#include <stdio.h>

#include "drv_device.h"
#include "gpu_memory.h"
#include "vkppu_memory.h"

static const void *find_next(const void *next, VkStructureType type)
{
   for (const VkBaseInStructure *s = next; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

/* Heap accounting: Vulkan lets an allocation fail with
 * VK_ERROR_OUT_OF_DEVICE_MEMORY once a heap's size is used up. */
static bool heap_reserve(struct vkppu_device *dev, uint32_t heap, VkDeviceSize size)
{
   struct vkppu_heap_usage *h = &vkppu_device_impl(dev)->heaps;
   VkDeviceSize heap_size = dev->physical_device->memory.memoryHeaps[heap].size;
   pthread_mutex_lock(&h->lock);
   bool ok = size <= heap_size && h->used[heap] <= heap_size - size;
   if (ok)
      h->used[heap] += size;
   pthread_mutex_unlock(&h->lock);
   return ok;
}

static void heap_release(struct vkppu_device *dev, uint32_t heap, VkDeviceSize size)
{
   struct vkppu_heap_usage *h = &vkppu_device_impl(dev)->heaps;
   pthread_mutex_lock(&h->lock);
   h->used[heap] -= size;
   pthread_mutex_unlock(&h->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_AllocateMemory(VkDevice device,
                                                    const VkMemoryAllocateInfo *pAllocateInfo,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkDeviceMemory *pMemory)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const VkPhysicalDeviceMemoryProperties *props = &dev->physical_device->memory;
   uint32_t type = pAllocateInfo->memoryTypeIndex;
   if (type >= props->memoryTypeCount) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkAllocateMemory: memoryTypeIndex %u does not exist (%u types)", type,
                   props->memoryTypeCount);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   uint32_t heap = props->memoryTypes[type].heapIndex;
   VkMemoryPropertyFlags properties = props->memoryTypes[type].propertyFlags;
   /* allocationSize must be > 0 (VUID-VkMemoryAllocateInfo-allocationSize-07899);
    * a zero request still gets a valid page rather than a crash later. */
   VkDeviceSize size = pAllocateInfo->allocationSize ? pAllocateInfo->allocationSize : 1;

   /* VkMemoryAllocateFlagsInfo's DEVICE_ADDRESS bit and
    * VkMemoryDedicatedAllocateInfo need nothing here: every allocation has a
    * GPU VA from the start, and a dedicated allocation is an allocation.
    * VkMemoryPriorityAllocateInfoEXT is a hint with nothing to act on: VRAM
    * is never oversubscribed or paged out. */
   uint64_t fixed_va = 0;
   const VkMemoryOpaqueCaptureAddressAllocateInfo *capture = find_next(
       pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO);
   if (capture)
      fixed_va = capture->opaqueCaptureAddress;

   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   if (!heap_reserve(dev, heap, size))
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;

   struct vkppu_device_memory *mem =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*mem), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!mem) {
      heap_release(dev, heap, size);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   vkppu_object_init(&mem->base, VK_OBJECT_TYPE_DEVICE_MEMORY, dev);
   mem->size = size;
   mem->type_index = type;
   mem->heap_index = heap;
   mem->properties = properties;
   /* Host-visible memory must be one host pointer, so physically contiguous. */
   uint32_t flags = (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ? DRV_BO_HOST_MAPPED : 0;
   enum drv_result dr = drv_bo_create(dev->drv, size, flags, fixed_va, &mem->bo);
   if (dr != DRV_SUCCESS) {
      heap_release(dev, heap, size);
      vkppu_object_finish(&mem->base);
      vkppu_device_free(dev, pAllocator, mem);
      return vkppu_result_from_drv(dr);
   }
   *pMemory = vkppu_device_memory_to_handle(mem);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_FreeMemory(VkDevice device, VkDeviceMemory memory,
                                            const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   if (!mem)
      return;
   /* Unmapping the VA makes any later GPU access fault (memory still mapped
    * on the host is implicitly unmapped, vkFreeMemory). */
   drv_bo_destroy(dev->drv, mem->bo);
   heap_release(dev, mem->heap_index, mem->size);
   vkppu_object_finish(&mem->base);
   vkppu_device_free(dev, pAllocator, mem);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_MapMemory(VkDevice device, VkDeviceMemory memory,
                                               VkDeviceSize offset, VkDeviceSize size,
                                               VkMemoryMapFlags flags, void **ppData)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   (void)flags;
   *ppData = NULL;
   const char *problem = NULL;
   if (!(mem->properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) || !mem->bo->map)
      problem = "its memory type is not HOST_VISIBLE";
   else if (mem->mapped)
      problem = "it is already mapped";
   else if (offset >= mem->size || (size != VK_WHOLE_SIZE && size > mem->size - offset))
      problem = "the range lies outside the allocation";
   if (problem) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkMapMemory: cannot map VkDeviceMemory 0x%llx: %s",
                   (unsigned long long)(uintptr_t)mem, problem);
      return VK_ERROR_MEMORY_MAP_FAILED;
   }
   mem->mapped = mem->bo->map + offset;
   *ppData = mem->mapped;
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   mem->mapped = NULL;
}

/* The BAR is ordinary host memory that the model reads and writes with the
 * host's coherence, so flushing and invalidating only need to order the
 * host's own accesses. */
VKAPI_ATTR VkResult VKAPI_CALL vkppu_FlushMappedMemoryRanges(VkDevice device,
                                                             uint32_t memoryRangeCount,
                                                             const VkMappedMemoryRange *pRanges)
{
   (void)device;
   (void)memoryRangeCount;
   (void)pRanges;
   __atomic_thread_fence(__ATOMIC_SEQ_CST);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_InvalidateMappedMemoryRanges(
    VkDevice device, uint32_t memoryRangeCount, const VkMappedMemoryRange *pRanges)
{
   (void)device;
   (void)memoryRangeCount;
   (void)pRanges;
   __atomic_thread_fence(__ATOMIC_SEQ_CST);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
                                                           VkDeviceSize *pCommittedMemoryInBytes)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   /* No lazily allocated memory type exists: all of it is committed. */
   *pCommittedMemoryInBytes = mem->bo->size;
}

VKAPI_ATTR uint64_t VKAPI_CALL vkppu_GetDeviceMemoryOpaqueCaptureAddress(
    VkDevice device, const VkDeviceMemoryOpaqueCaptureAddressInfo *pInfo)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, pInfo->memory);
   return mem->bo->va;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceGroupPeerMemoryFeatures(
    VkDevice device, uint32_t heapIndex, uint32_t localDeviceIndex, uint32_t remoteDeviceIndex,
    VkPeerMemoryFeatureFlags *pPeerMemoryFeatures)
{
   (void)device;
   (void)heapIndex;
   (void)localDeviceIndex;
   (void)remoteDeviceIndex;
   /* A group of one device has no peer memory. */
   *pPeerMemoryFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDeviceMask(VkCommandBuffer commandBuffer,
                                                  uint32_t deviceMask)
{
   /* The only valid mask of a one-device group is 1, which changes nothing. */
   (void)commandBuffer;
   (void)deviceMask;
}

/* VK_EXT_pageable_device_local_memory: a new priority for an allocation, a
 * hint like VkMemoryPriorityAllocateInfoEXT (nothing is ever paged out). */
VKAPI_ATTR void VKAPI_CALL vkppu_SetDeviceMemoryPriorityEXT(VkDevice device, VkDeviceMemory memory,
                                                            float priority)
{
   (void)device;
   (void)memory;
   (void)priority;
}
