/* VkBuffer: a size and usage until bound, then a range of a VkDeviceMemory
 * whose GPU address is the memory's VA plus the bind offset. */
#include "gpu_memory.h"
#include "vkppu_memory.h"

/* 256 bytes satisfies every buffer offset alignment the spec lets a device
 * report (minUniformBufferOffsetAlignment, minStorageBufferOffsetAlignment and
 * minTexelBufferOffsetAlignment are at most 256), so a bound buffer is always
 * usable for any descriptor. */
#define BUFFER_ALIGNMENT 256u

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateBuffer(VkDevice device,
                                                  const VkBufferCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkBuffer *pBuffer)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (pCreateInfo->flags &
       (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
        VK_BUFFER_CREATE_SPARSE_ALIASED_BIT | VK_BUFFER_CREATE_PROTECTED_BIT)) {
      /* The features these need (sparseBinding, protectedMemory) are not
       * reported, so no valid application asks. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateBuffer: flags 0x%x need sparse or protected memory, which this "
                   "device does not support",
                   pCreateInfo->flags);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   struct vkppu_buffer *buf =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*buf), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!buf)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&buf->base, VK_OBJECT_TYPE_BUFFER, dev);
   buf->size = pCreateInfo->size;
   buf->usage = pCreateInfo->usage;
   buf->flags = pCreateInfo->flags;
   *pBuffer = vkppu_buffer_to_handle(buf);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyBuffer(VkDevice device, VkBuffer buffer,
                                               const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, buffer);
   if (!buf)
      return;
   vkppu_object_finish(&buf->base);
   vkppu_device_free(dev, pAllocator, buf);
}

static void buffer_requirements(const struct vkppu_device *dev, VkDeviceSize size,
                                VkMemoryRequirements *out)
{
   /* Rounding up a size within BUFFER_ALIGNMENT - 1 of 2^64 would wrap to a
    * tiny requirement, smaller than the buffer (CTS
    * api.buffer.basic.size_max_uint64 wants size >= the buffer's). Such a
    * buffer needs UINT64_MAX: no heap is that large, so vkAllocateMemory
    * refuses it with VK_ERROR_OUT_OF_DEVICE_MEMORY. The spec does not ask
    * the size to be a multiple of the alignment, and it stays monotonic in
    * the buffer's size, which the spec does ask. */
   if (size > UINT64_MAX - (BUFFER_ALIGNMENT - 1))
      out->size = UINT64_MAX;
   else
      out->size = (size + BUFFER_ALIGNMENT - 1) & ~(VkDeviceSize)(BUFFER_ALIGNMENT - 1);
   out->alignment = BUFFER_ALIGNMENT;
   /* Every memory type can back a buffer. */
   out->memoryTypeBits = (1u << dev->physical_device->memory.memoryTypeCount) - 1u;
}

/* Fills the structs the application chained to VkMemoryRequirements2. */
static void fill_requirements_chain(void *next)
{
   for (VkBaseOutStructure *s = next; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
         VkMemoryDedicatedRequirements *d = (VkMemoryDedicatedRequirements *)(void *)s;
         /* A dedicated allocation gains nothing on this device. */
         d->prefersDedicatedAllocation = VK_FALSE;
         d->requiresDedicatedAllocation = VK_FALSE;
      }
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetBufferMemoryRequirements(
    VkDevice device, VkBuffer buffer, VkMemoryRequirements *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, buffer);
   buffer_requirements(dev, buf->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL
vkppu_GetBufferMemoryRequirements2(VkDevice device, const VkBufferMemoryRequirementsInfo2 *pInfo,
                                   VkMemoryRequirements2 *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, pInfo->buffer);
   buffer_requirements(dev, buf->size, &pMemoryRequirements->memoryRequirements);
   fill_requirements_chain(pMemoryRequirements->pNext);
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceBufferMemoryRequirements(
    VkDevice device, const VkDeviceBufferMemoryRequirements *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   buffer_requirements(dev, pInfo->pCreateInfo->size, &pMemoryRequirements->memoryRequirements);
   fill_requirements_chain(pMemoryRequirements->pNext);
}

static VkResult bind(struct vkppu_device *dev, VkBuffer buffer, VkDeviceMemory memory,
                     VkDeviceSize offset)
{
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, buffer);
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   if (offset > mem->size || buf->size > mem->size - offset) {
      /* VUID-vkBindBufferMemory-size-01037; refusing keeps a bad bind from
       * turning into GPU accesses past the allocation. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkBindBufferMemory: buffer of %llu bytes at offset %llu does not fit in "
                   "memory of %llu bytes",
                   (unsigned long long)buf->size, (unsigned long long)offset,
                   (unsigned long long)mem->size);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   buf->memory = mem;
   buf->offset = offset;
   buf->va = mem->bo->va + offset;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BindBufferMemory(VkDevice device, VkBuffer buffer,
                                                      VkDeviceMemory memory,
                                                      VkDeviceSize memoryOffset)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   return bind(dev, buffer, memory, memoryOffset);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BindBufferMemory2(VkDevice device, uint32_t bindInfoCount,
                                                       const VkBindBufferMemoryInfo *pBindInfos)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* VkBindBufferMemoryDeviceGroupInfo can only name device 0 here, which is
    * what a plain bind does. */
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      VkResult r =
          bind(dev, pBindInfos[i].buffer, pBindInfos[i].memory, pBindInfos[i].memoryOffset);
      if (r != VK_SUCCESS)
         return r;
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL
vkppu_GetBufferDeviceAddress(VkDevice device, const VkBufferDeviceAddressInfo *pInfo)
{
   (void)device;
   /* Never 0: application memory starts at 4 GiB (docs/driver.md). */
   return vkppu_buffer_from_handle(pInfo->buffer)->va;
}

VKAPI_ATTR uint64_t VKAPI_CALL
vkppu_GetBufferOpaqueCaptureAddress(VkDevice device, const VkBufferDeviceAddressInfo *pInfo)
{
   (void)device;
   (void)pInfo;
   /* A buffer's address comes from its memory (replayed through
    * VkMemoryOpaqueCaptureAddressAllocateInfo), so the buffer itself needs no
    * capture address: 0 means "none" (vkGetBufferOpaqueCaptureAddress). */
   return 0;
}
