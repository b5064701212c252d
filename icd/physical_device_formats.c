/* Format, image, sparse and external-handle queries, tools and time
 * domains. Images do not exist yet, so no format has any feature and no
 * image can be created; no handle type can be exported or imported. */
#include <string.h>

#include "vkppu_physical_device.h"

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties *pFormatProperties)
{
   (void)physicalDevice;
   (void)format;
   memset(pFormatProperties, 0, sizeof(*pFormatProperties));
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFormatProperties2(
    VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties)
{
   vkppu_GetPhysicalDeviceFormatProperties(physicalDevice, format,
                                           &pFormatProperties->formatProperties);
   for (VkBaseOutStructure *s = pFormatProperties->pNext; s != NULL; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
         VkFormatProperties3 *p3 = (void *)s;
         p3->linearTilingFeatures = 0;
         p3->optimalTilingFeatures = 0;
         p3->bufferFeatures = 0;
      }
   }
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags,
    VkImageFormatProperties *pImageFormatProperties)
{
   (void)physicalDevice;
   (void)format;
   (void)type;
   (void)tiling;
   (void)usage;
   (void)flags;
   /* Spec: when the combination is unsupported the result is
    * VK_ERROR_FORMAT_NOT_SUPPORTED and the properties are all zero. */
   memset(pImageFormatProperties, 0, sizeof(*pImageFormatProperties));
   return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
    VkImageFormatProperties2 *pImageFormatProperties)
{
   (void)physicalDevice;
   (void)pImageFormatInfo;
   memset(&pImageFormatProperties->imageFormatProperties, 0,
          sizeof(pImageFormatProperties->imageFormatProperties));
   for (VkBaseOutStructure *s = pImageFormatProperties->pNext; s != NULL; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES) {
         VkExternalImageFormatProperties *e = (void *)s;
         memset(&e->externalMemoryProperties, 0, sizeof(e->externalMemoryProperties));
      } else if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES) {
         ((VkSamplerYcbcrConversionImageFormatProperties *)s)->combinedImageSamplerDescriptorCount =
             0;
      }
   }
   return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
    VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageTiling tiling,
    uint32_t *pPropertyCount, VkSparseImageFormatProperties *pProperties)
{
   (void)physicalDevice;
   (void)format;
   (void)type;
   (void)samples;
   (void)usage;
   (void)tiling;
   (void)pProperties;
   *pPropertyCount = 0; /* sparse images are not supported */
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
    uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
   (void)physicalDevice;
   (void)pFormatInfo;
   (void)pProperties;
   *pPropertyCount = 0;
}

/* External memory, fence and semaphore: no handle type can be exported or
 * imported, which the spec expresses as all-zero properties. */
VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalBufferInfo *pExternalBufferInfo,
    VkExternalBufferProperties *pExternalBufferProperties)
{
   (void)physicalDevice;
   (void)pExternalBufferInfo;
   memset(&pExternalBufferProperties->externalMemoryProperties, 0,
          sizeof(pExternalBufferProperties->externalMemoryProperties));
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalFenceInfo *pExternalFenceInfo,
    VkExternalFenceProperties *pExternalFenceProperties)
{
   (void)physicalDevice;
   (void)pExternalFenceInfo;
   pExternalFenceProperties->exportFromImportedHandleTypes = 0;
   pExternalFenceProperties->compatibleHandleTypes = 0;
   pExternalFenceProperties->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceExternalSemaphoreInfo *pExternalSemaphoreInfo,
    VkExternalSemaphoreProperties *pExternalSemaphoreProperties)
{
   (void)physicalDevice;
   (void)pExternalSemaphoreInfo;
   pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
   pExternalSemaphoreProperties->compatibleHandleTypes = 0;
   pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
                                      VkPhysicalDeviceToolProperties *pToolProperties)
{
   /* Tools (layers) report themselves on the way down; the driver adds
    * none. */
   (void)physicalDevice;
   (void)pToolProperties;
   *pToolCount = 0;
   return VK_SUCCESS;
}

/* VK_EXT_calibrated_timestamps: the GPU timer (PTIMER, ns since the chip was
 * created) and CLOCK_MONOTONIC, which the driver samples together in
 * vkGetCalibratedTimestampsEXT. */
static const VkTimeDomainEXT vkppu_time_domains[] = {
    VK_TIME_DOMAIN_DEVICE_EXT,
    VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
};

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceCalibrateableTimeDomainsEXT(
    VkPhysicalDevice physicalDevice, uint32_t *pTimeDomainCount, VkTimeDomainEXT *pTimeDomains)
{
   (void)physicalDevice;
   const uint32_t count = sizeof(vkppu_time_domains) / sizeof(vkppu_time_domains[0]);
   if (pTimeDomains == NULL) {
      *pTimeDomainCount = count;
      return VK_SUCCESS;
   }
   uint32_t n = *pTimeDomainCount < count ? *pTimeDomainCount : count;
   memcpy(pTimeDomains, vkppu_time_domains, n * sizeof(*pTimeDomains));
   *pTimeDomainCount = n;
   return n < count ? VK_INCOMPLETE : VK_SUCCESS;
}
