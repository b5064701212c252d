/* The image halves of VK_KHR_bind_memory2 and VK_KHR_get_memory_requirements2.
 *
 * No VkImage can exist yet: no format reports any feature and vkCreateImage
 * is not supported until the texture unit lands (docs/status.md). These
 * commands therefore cannot be called with a valid image handle. They are
 * implemented so that the extensions we advertise are complete, and they
 * answer the way the unsupported core commands do instead of touching a
 * handle that cannot be ours. */
#include <stdio.h>

#include "vkppu_entrypoints.h"

static void say_images_unsupported(const char *command)
{
   fprintf(stderr, "vkppu: %s: images are not supported by this driver yet\n", command);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BindImageMemory2(VkDevice device, uint32_t bindInfoCount,
                                                      const VkBindImageMemoryInfo *pBindInfos)
{
   (void)device;
   (void)bindInfoCount;
   (void)pBindInfos;
   say_images_unsupported("vkBindImageMemory2");
   return VK_ERROR_FEATURE_NOT_PRESENT;
}

VKAPI_ATTR void VKAPI_CALL
vkppu_GetImageMemoryRequirements2(VkDevice device, const VkImageMemoryRequirementsInfo2 *pInfo,
                                  VkMemoryRequirements2 *pMemoryRequirements)
{
   (void)device;
   (void)pInfo;
   say_images_unsupported("vkGetImageMemoryRequirements2");
   /* No memory type can hold an image that cannot exist. */
   pMemoryRequirements->memoryRequirements =
       (VkMemoryRequirements){.size = 0, .alignment = 1, .memoryTypeBits = 0};
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetImageSparseMemoryRequirements2(
    VkDevice device, const VkImageSparseMemoryRequirementsInfo2 *pInfo,
    uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *pSparseMemoryRequirements)
{
   (void)device;
   (void)pInfo;
   (void)pSparseMemoryRequirements;
   /* Sparse residency is not supported: no requirements, as the spec asks of
    * an image without VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT. */
   *pSparseMemoryRequirementCount = 0;
}
