/* Format, image, sparse and external-handle queries, tools and time
 * domains. Format features come from the format table (format_table.c,
 * whose comment is the feature policy); what an image of a format can be
 * follows from them and the device limits. No handle type can be exported
 * or imported, and sparse images are not supported. */
#include <string.h>

#include "vkppu_acceleration_structure.h"
#include "vkppu_graphics.h"
#include "vkppu_image.h"
#include "vkppu_physical_device.h"

/* Acceleration-structure builds read vertices on the host, not through the
 * texture unit, so this feature is the builder's list of vertex formats
 * (exactly those VK_KHR_acceleration_structure requires it for), not the
 * format table's. The bit has the same value in VkFormatFeatureFlags2. */
static VkFormatFeatureFlags as_vertex_feature(VkFormat format)
{
   /* No _Static_assert that the two are equal: the _2 bits are static
    * const variables in C, not constant expressions (both are 1 << 29). */
   return vkppu_as_vertex_format_size(format)
              ? VK_FORMAT_FEATURE_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR
              : 0;
}

/* VERTEX_BUFFER: the formats graphics pipelines fetch (vertex_formats.c). */
static VkFormatFeatureFlags vertex_feature(VkFormat format)
{
   return vkppu_vertex_format_supported(format) ? VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT : 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties *pFormatProperties)
{
   (void)physicalDevice;
   const struct vkppu_format_info *f = vkppu_format_info(format);
   *pFormatProperties = (VkFormatProperties){
       .linearTilingFeatures = f->linear,
       .optimalTilingFeatures = f->optimal,
       .bufferFeatures = f->buffer | as_vertex_feature(format) | vertex_feature(format),
   };
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFormatProperties2(
    VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties)
{
   vkppu_GetPhysicalDeviceFormatProperties(physicalDevice, format,
                                           &pFormatProperties->formatProperties);
   const struct vkppu_format_info *f = vkppu_format_info(format);
   for (VkBaseOutStructure *s = pFormatProperties->pNext; s != NULL; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
         VkFormatProperties3 *p3 = (void *)s;
         p3->linearTilingFeatures = f->linear2;
         p3->optimalTilingFeatures = f->optimal2;
         p3->bufferFeatures = f->buffer2 | as_vertex_feature(format) | vertex_feature(format);
      }
   }
}

/* The format features an image usage needs (spec: "Image Creation
 * Limits"); 0 for a usage no format feature can give here. */
static bool usage_supported(VkImageUsageFlags usage, VkFormatFeatureFlags features)
{
   static const struct {
      VkImageUsageFlags usage;
      VkFormatFeatureFlags needs;
   } rules[] = {
       {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT},
       {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_TRANSFER_DST_BIT},
       {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT},
       {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT},
       {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT},
       {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
        VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT},
       /* Transient attachments are ordinary memory here. */
       {VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
        VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT},
   };
   for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
      if (usage & rules[i].usage) {
         if (!(features & rules[i].needs))
            return false;
         usage &= ~rules[i].usage;
      }
   }
   /* Input attachments: an attachment format (the spec's rule) that the
    * texture unit also reads, since subpassLoad is a texel fetch of the
    * view's header (translate_image.c). */
   if (usage & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT) {
      const VkFormatFeatureFlags attachment =
          VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
      if (!(features & attachment) || !(features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
         return false;
      usage &= ~VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
   }
   /* The usages of extensions need what no format has. */
   return usage == 0;
}

/* The spec's minimum for maxResourceSize is 2^31; images may be as large as
 * the largest allocation (VkPhysicalDeviceMaintenance3Properties), which
 * this copies so the two cannot disagree. */
static VkDeviceSize max_resource_size(const struct vkppu_physical_device *pd)
{
   VkPhysicalDeviceMaintenance3Properties m3 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
   VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                        .pNext = &m3};
   vkppu_GetPhysicalDeviceProperties2(
       vkppu_physical_device_to_handle((struct vkppu_physical_device *)pd), &props);
   return m3.maxMemoryAllocationSize;
}

/* 4x images are render targets: the ROP writes them (4x layout, SAMPLES_LOG2
 * 2) and RESOLVE, the copy engine's clears and image copies handle them as
 * a 1x image of twice the extent. Shaders read them with texelFetch: a 4x
 * view's header (samples_log2 2) makes TLD fetch sample s of a pixel, so
 * SAMPLED usage is 4x for formats sampled at 1x (sampledImage*SampleCounts
 * 1|4), and so is INPUT_ATTACHMENT (subpassLoad of subpassInputMS passes
 * its sample to the same fetch). The texture unit has no multisampled
 * storage access (storageImageSampleCounts 1), so STORAGE usage keeps 1x.
 * Integer colour formats are 4x too (framebufferIntegerColorSampleCounts),
 * resolved by sample zero.
 * Spec "Image Creation Limits": 1x only for linear, non-2D or
 * cube-compatible images and formats that are no attachment. */
static VkSampleCountFlags multisample_counts(const struct vkppu_format_info *f, VkImageType type,
                                             VkImageTiling tiling, VkImageUsageFlags usage,
                                             VkImageCreateFlags flags)
{
   const VkFormatFeatureFlags attachment =
       VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
   const VkImageUsageFlags single = VK_IMAGE_USAGE_STORAGE_BIT;
   if (tiling != VK_IMAGE_TILING_OPTIMAL || type != VK_IMAGE_TYPE_2D ||
       (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) || !(f->optimal & attachment) ||
       (usage & single) ||
       ((usage & VK_IMAGE_USAGE_SAMPLED_BIT) &&
        !(f->optimal & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)))
      return VK_SAMPLE_COUNT_1_BIT;
   return VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
}

const char *vkppu_image_format_support(const struct vkppu_physical_device *pd, VkFormat format,
                                       VkImageType type, VkImageTiling tiling,
                                       VkImageUsageFlags usage, VkImageCreateFlags flags,
                                       VkImageFormatProperties *out)
{
   memset(out, 0, sizeof(*out));
   const struct vkppu_format_info *f = vkppu_format_info(format);
   if (f->hw == PPU_TEX_FORMAT_INVALID)
      return "the format has no hardware texel format";
   if (tiling != VK_IMAGE_TILING_OPTIMAL && tiling != VK_IMAGE_TILING_LINEAR)
      return "only OPTIMAL and LINEAR tiling exist (no DRM format modifiers)";
   bool linear = tiling == VK_IMAGE_TILING_LINEAR;
   VkFormatFeatureFlags features = linear ? f->linear : f->optimal;
   if (features == 0)
      return "the format has no features in this tiling";
   if (flags & ~VKPPU_IMAGE_CREATE_SUPPORTED_FLAGS)
      return "a create flag is not supported (sparse, protected, split-instance, ...)";
   /* EXTENDED_USAGE: the usage may name what only a view format can do
    * (storage of an sRGB or BC image through a compatible view). */
   if (!usage_supported(usage, flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT
                                   ? vkppu_format_view_features(format, flags, linear)
                                   : features))
      return "a usage needs a format feature the format lacks";
   bool cube = (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) != 0;
   if (cube && type != VK_IMAGE_TYPE_2D)
      return "CUBE_COMPATIBLE needs a 2D image";
   if ((flags &
        (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)) &&
       type != VK_IMAGE_TYPE_3D)
      return "2D_ARRAY_COMPATIBLE and 2D_VIEW_COMPATIBLE need a 3D image";
   if ((flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) &&
       (!ppu_tex_format_is_compressed(f->hw) || !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)))
      return "BLOCK_TEXEL_VIEW_COMPATIBLE needs a block-compressed format and MUTABLE_FORMAT";
   /* Depth, stencil and BC images are 2D (incl. arrays and cubes): what
    * applications make of them and what is tested. 3D BC or 1D depth images
    * are legal Vulkan but untested here, so not claimed. */
   bool color = f->aspects == VK_IMAGE_ASPECT_COLOR_BIT;
   if ((!color || ppu_tex_format_is_compressed(f->hw)) && type != VK_IMAGE_TYPE_2D)
      return "depth, stencil and block-compressed images are 2D only";
   if (linear && (type != VK_IMAGE_TYPE_2D || cube))
      return "linear images are 2D only, with one level and one layer";

   VkPhysicalDeviceProperties props;
   vkppu_physical_device_get_properties(pd, &props);
   const VkPhysicalDeviceLimits *l = &props.limits;
   switch (type) {
   case VK_IMAGE_TYPE_1D:
      out->maxExtent = (VkExtent3D){l->maxImageDimension1D, 1, 1};
      break;
   case VK_IMAGE_TYPE_2D:
      out->maxExtent = cube ? (VkExtent3D){l->maxImageDimensionCube, l->maxImageDimensionCube, 1}
                            : (VkExtent3D){l->maxImageDimension2D, l->maxImageDimension2D, 1};
      break;
   case VK_IMAGE_TYPE_3D:
      out->maxExtent =
          (VkExtent3D){l->maxImageDimension3D, l->maxImageDimension3D, l->maxImageDimension3D};
      break;
   default:
      return "unknown image type";
   }
   uint32_t largest =
       out->maxExtent.width > out->maxExtent.depth ? out->maxExtent.width : out->maxExtent.depth;
   out->maxMipLevels = linear ? 1 : vkppu_mip_chain_levels(largest);
   out->maxArrayLayers = linear || type == VK_IMAGE_TYPE_3D ? 1 : l->maxImageArrayLayers;
   out->sampleCounts = multisample_counts(f, type, tiling, usage, flags);
   out->maxResourceSize = max_resource_size(pd);
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags,
    VkImageFormatProperties *pImageFormatProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   /* Spec: when the combination is unsupported the result is
    * VK_ERROR_FORMAT_NOT_SUPPORTED and the properties are all zero. */
   return vkppu_image_format_support(pd, format, type, tiling, usage, flags, pImageFormatProperties)
              ? VK_ERROR_FORMAT_NOT_SUPPORTED
              : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
    VkImageFormatProperties2 *pImageFormatProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   const VkPhysicalDeviceImageFormatInfo2 *i = pImageFormatInfo;
   VkImageUsageFlags usage = i->usage;
   bool external = false;
   for (const VkBaseInStructure *s = i->pNext; s != NULL; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO)
         external = ((const VkPhysicalDeviceExternalImageFormatInfo *)(const void *)s)->handleType;
      else if (s->sType == VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO)
         usage |= ((const VkImageStencilUsageCreateInfo *)(const void *)s)->stencilUsage;
   }
   VkImageFormatProperties *props = &pImageFormatProperties->imageFormatProperties;
   const char *why =
       vkppu_image_format_support(pd, i->format, i->type, i->tiling, usage, i->flags, props);
   /* No handle type can be exported or imported. */
   if (!why && external) {
      why = "external memory";
      memset(props, 0, sizeof(*props));
   }
   for (VkBaseOutStructure *s = pImageFormatProperties->pNext; s != NULL; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES) {
         VkExternalImageFormatProperties *e = (void *)s;
         memset(&e->externalMemoryProperties, 0, sizeof(e->externalMemoryProperties));
      } else if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES) {
         /* No format of the table is a YCbCr format: one descriptor. */
         ((VkSamplerYcbcrConversionImageFormatProperties *)s)->combinedImageSamplerDescriptorCount =
             why ? 0 : 1;
      }
   }
   return why ? VK_ERROR_FORMAT_NOT_SUPPORTED : VK_SUCCESS;
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
