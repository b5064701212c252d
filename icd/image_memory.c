/* Image memory: requirements (core and VK_KHR_get_memory_requirements2),
 * binding (core and VK_KHR_bind_memory2) and the sparse queries. An image
 * is bound like a buffer: its texture header's address becomes the
 * memory's VA plus the offset. */
#include "gpu_memory.h"
#include "vkppu_image.h"
#include "vkppu_memory.h"

static void image_requirements(const struct vkppu_device *dev, const struct vkppu_image *img,
                               VkMemoryRequirements *out)
{
   out->size = img->size;
   out->alignment = img->alignment;
   /* Every memory type can back an image: all are the same VRAM behind
    * the same MMU, which has no linear/optimal split. */
   out->memoryTypeBits = (1u << dev->physical_device->memory.memoryTypeCount) - 1u;
}

/* Fills the structs the application chained to VkMemoryRequirements2. */
static void fill_requirements_chain(void *next)
{
   VkMemoryDedicatedRequirements *d =
       (void *)vkppu_find_in_chain(next, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS);
   if (d) {
      /* A dedicated allocation gains nothing on this device: images need
       * no per-allocation state (no compression tags, no page kinds). */
      d->prefersDedicatedAllocation = VK_FALSE;
      d->requiresDedicatedAllocation = VK_FALSE;
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetImageMemoryRequirements(
    VkDevice device, VkImage image, VkMemoryRequirements *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   image_requirements(dev, img, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL
vkppu_GetImageMemoryRequirements2(VkDevice device, const VkImageMemoryRequirementsInfo2 *pInfo,
                                  VkMemoryRequirements2 *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_image, img, pInfo->image);
   /* VkImagePlaneMemoryRequirementsInfo needs a disjoint multi-planar
    * image, which cannot exist here. */
   image_requirements(dev, img, &pMemoryRequirements->memoryRequirements);
   fill_requirements_chain(pMemoryRequirements->pNext);
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceImageMemoryRequirements(
    VkDevice device, const VkDeviceImageMemoryRequirements *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* The same layout vkCreateImage would give the image. */
   struct vkppu_image img;
   vkppu_image_init_layout(&img, pInfo->pCreateInfo);
   image_requirements(dev, &img, &pMemoryRequirements->memoryRequirements);
   fill_requirements_chain(pMemoryRequirements->pNext);
}

/* Sparse residency is not supported: no requirements, as the spec asks of
 * an image without VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT. */
VKAPI_ATTR void VKAPI_CALL vkppu_GetImageSparseMemoryRequirements(
    VkDevice device, VkImage image, uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements *pSparseMemoryRequirements)
{
   (void)device;
   (void)image;
   (void)pSparseMemoryRequirements;
   *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetImageSparseMemoryRequirements2(
    VkDevice device, const VkImageSparseMemoryRequirementsInfo2 *pInfo,
    uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *pSparseMemoryRequirements)
{
   (void)device;
   (void)pInfo;
   (void)pSparseMemoryRequirements;
   *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceImageSparseMemoryRequirements(
    VkDevice device, const VkDeviceImageMemoryRequirements *pInfo,
    uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *pSparseMemoryRequirements)
{
   (void)device;
   (void)pInfo;
   (void)pSparseMemoryRequirements;
   *pSparseMemoryRequirementCount = 0;
}

static VkResult bind(struct vkppu_device *dev, VkImage image, VkDeviceMemory memory,
                     VkDeviceSize offset)
{
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   VKPPU_FROM_HANDLE(vkppu_device_memory, mem, memory);
   const char *problem = NULL;
   if (offset % img->alignment)
      problem = "the offset is not a multiple of the image's alignment";
   else if (offset > mem->size || img->size > mem->size - offset)
      problem = "the image does not fit in the memory";
   if (problem) {
      /* VUID-vkBindImageMemory-memoryOffset-01048 and -size-01049; refusing
       * keeps the texture unit from faulting on a misaligned header or
       * reaching past the allocation. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkBindImageMemory: image of %llu bytes (alignment %llu) at offset %llu in "
                   "memory of %llu bytes: %s",
                   (unsigned long long)img->size, (unsigned long long)img->alignment,
                   (unsigned long long)offset, (unsigned long long)mem->size, problem);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   img->memory = mem;
   img->memory_offset = offset;
   img->whole.address = mem->bo->va + offset;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BindImageMemory(VkDevice device, VkImage image,
                                                     VkDeviceMemory memory,
                                                     VkDeviceSize memoryOffset)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   return bind(dev, image, memory, memoryOffset);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BindImageMemory2(VkDevice device, uint32_t bindInfoCount,
                                                      const VkBindImageMemoryInfo *pBindInfos)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* VkBindImageMemoryDeviceGroupInfo can only name device 0 here, which is
    * what a plain bind does; plane and swapchain binds need objects that
    * cannot exist on this device. */
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      VkResult r = bind(dev, pBindInfos[i].image, pBindInfos[i].memory, pBindInfos[i].memoryOffset);
      if (r != VK_SUCCESS)
         return r;
   }
   return VK_SUCCESS;
}
