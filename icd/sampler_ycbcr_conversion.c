/* vkCreateSamplerYcbcrConversion / vkDestroySamplerYcbcrConversion (core
 * 1.1). The samplerYcbcrConversion feature is optional and reported
 * VK_FALSE: the texture unit has no multi-planar formats or chroma
 * reconstruction. An application may only create a conversion with the
 * feature enabled, which no device can be, so creation reports that and
 * fails; destroying VK_NULL_HANDLE stays valid and silent, which the
 * generated "not supported" fallback would not be. */
#include "vkppu_device.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateSamplerYcbcrConversion(
    VkDevice device, const VkSamplerYcbcrConversionCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkSamplerYcbcrConversion *pYcbcrConversion)
{
   (void)pCreateInfo;
   (void)pAllocator;
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                "vkCreateSamplerYcbcrConversion: samplerYcbcrConversion is not supported by this "
                "device (the feature is VK_FALSE)");
   *pYcbcrConversion = VK_NULL_HANDLE;
   return VK_ERROR_FEATURE_NOT_PRESENT;
}

VKAPI_ATTR void VKAPI_CALL
vkppu_DestroySamplerYcbcrConversion(VkDevice device, VkSamplerYcbcrConversion ycbcrConversion,
                                    const VkAllocationCallbacks *pAllocator)
{
   /* No conversion can exist, so the handle is VK_NULL_HANDLE. */
   (void)device;
   (void)ycbcrConversion;
   (void)pAllocator;
}
