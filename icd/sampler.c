/* VkSampler: the sampler header a SAMPLER or COMBINED_IMAGE_SAMPLER
 * descriptor holds (ppu/texture.h). Filters, address modes and compare ops
 * are numbered alike in Vulkan and in the header; what the device does not
 * report (cubic filtering, YCbCr conversion) is refused; min/max reduction
 * is the header's reduction field. Border colors, fixed or custom
 * (VK_EXT_custom_border_color), are the header's four words; the texture
 * unit keeps the format's components of the border and applies the view's
 * swizzle to it as to any texel, which is what VK_EXT_border_color_swizzle
 * asks for with or without VkSamplerBorderColorComponentMappingCreateInfoEXT
 * (borderColorSwizzleFromImage). */
#include <math.h>

#include "vkppu_image.h"

/* The header reuses Vulkan's numbering of filters and address modes. */
#define SAME_NUMBER(vk, ppu) _Static_assert((int)(vk) == (int)(ppu), #vk " is " #ppu)
SAME_NUMBER(VK_FILTER_LINEAR, PPU_TEX_FILTER_LINEAR);
SAME_NUMBER(VK_SAMPLER_MIPMAP_MODE_LINEAR, PPU_TEX_FILTER_LINEAR);
SAME_NUMBER(VK_SAMPLER_ADDRESS_MODE_REPEAT, PPU_TEX_ADDRESS_REPEAT);
SAME_NUMBER(VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, PPU_TEX_ADDRESS_MIRRORED_REPEAT);
SAME_NUMBER(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
SAME_NUMBER(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, PPU_TEX_ADDRESS_CLAMP_TO_BORDER);

/* The six fixed VkBorderColor values and the custom ones: RGBA as float
 * bits, or integers. */
static void border_color(VkBorderColor c, const VkSamplerCustomBorderColorCreateInfoEXT *custom,
                         struct ppu_sampler_header *h)
{
   if (c == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT || c == VK_BORDER_COLOR_INT_CUSTOM_EXT) {
      /* The color's 32-bit words as given: float bits for FLOAT_CUSTOM,
       * integers for INT_CUSTOM (check_sampler made sure custom is there). */
      for (unsigned i = 0; i < 4; i++)
         h->border_color[i] = custom->customBorderColor.uint32[i];
      if (c == VK_BORDER_COLOR_INT_CUSTOM_EXT)
         h->flags |= PPU_SAMPLER_FLAG_BORDER_INT;
      return;
   }
   const uint32_t one_f = 0x3f800000u; /* 1.0f */
   bool is_int = c == VK_BORDER_COLOR_INT_TRANSPARENT_BLACK ||
                 c == VK_BORDER_COLOR_INT_OPAQUE_BLACK || c == VK_BORDER_COLOR_INT_OPAQUE_WHITE;
   uint32_t one = is_int ? 1u : one_f;
   bool white = c == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE || c == VK_BORDER_COLOR_INT_OPAQUE_WHITE;
   bool opaque =
       white || c == VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK || c == VK_BORDER_COLOR_INT_OPAQUE_BLACK;
   for (unsigned i = 0; i < 3; i++)
      h->border_color[i] = white ? one : 0;
   h->border_color[3] = opaque ? one : 0;
   if (is_int)
      h->flags |= PPU_SAMPLER_FLAG_BORDER_INT;
}

static bool address_mode_supported(VkSamplerAddressMode m)
{
   /* Every mode through MIRROR_CLAMP_TO_EDGE (samplerMirrorClampToEdge,
    * VK_KHR_sampler_mirror_clamp_to_edge): the texture unit's address modes
    * number like Vulkan's (tex_address.c). */
   return m <= VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
}

/* NULL when the sampler is one vkppu can describe, else why not. */
static const char *check_sampler(const VkSamplerCreateInfo *ci)
{
   if (vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO))
      return "YCbCr conversion is not supported";
   const VkSamplerReductionModeCreateInfo *reduction =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
   if (reduction && reduction->reductionMode > VK_SAMPLER_REDUCTION_MODE_MAX)
      return "reduction mode out of range (weighted average, min and max exist)";
   if (ci->flags)
      return "sampler create flags are not supported";
   if (ci->anisotropyEnable && !(ci->maxAnisotropy >= 1.0f && ci->maxAnisotropy <= 16.0f))
      return "maxAnisotropy outside [1, maxSamplerAnisotropy = 16]";
   if (ci->magFilter > VK_FILTER_LINEAR || ci->minFilter > VK_FILTER_LINEAR ||
       ci->mipmapMode > VK_SAMPLER_MIPMAP_MODE_LINEAR)
      return "only NEAREST and LINEAR filters exist (no cubic filtering)";
   if (!address_mode_supported(ci->addressModeU) || !address_mode_supported(ci->addressModeV) ||
       !address_mode_supported(ci->addressModeW))
      return "address mode out of range";
   if (ci->compareEnable && ci->compareOp > VK_COMPARE_OP_ALWAYS)
      return "compare op out of range";
   bool custom = ci->borderColor == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT ||
                 ci->borderColor == VK_BORDER_COLOR_INT_CUSTOM_EXT;
   if (ci->borderColor > VK_BORDER_COLOR_INT_OPAQUE_WHITE && !custom)
      return "border color out of range";
   if (custom && !vkppu_find_in_chain(
                     ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT))
      return "a custom border color needs VkSamplerCustomBorderColorCreateInfoEXT";
   if (isnan(ci->mipLodBias) || isnan(ci->minLod) || isnan(ci->maxLod) || ci->minLod > ci->maxLod)
      return "mipLodBias, minLod or maxLod NaN, or minLod > maxLod";
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateSampler(VkDevice device,
                                                   const VkSamplerCreateInfo *pCreateInfo,
                                                   const VkAllocationCallbacks *pAllocator,
                                                   VkSampler *pSampler)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const VkSamplerCreateInfo *ci = pCreateInfo;
   const char *why = check_sampler(ci);
   if (why) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateSampler: %s", why);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   struct vkppu_sampler *sampler =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*sampler), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sampler)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&sampler->base, VK_OBJECT_TYPE_SAMPLER, dev);
   struct ppu_sampler_header *h = &sampler->header;
   h->mag_filter = (uint8_t)ci->magFilter;
   h->min_filter = (uint8_t)ci->minFilter;
   h->mip_filter = (uint8_t)ci->mipmapMode;
   h->address_u = (uint8_t)ci->addressModeU;
   h->address_v = (uint8_t)ci->addressModeV;
   h->address_w = (uint8_t)ci->addressModeW;
   if (ci->compareEnable) {
      h->flags |= PPU_SAMPLER_FLAG_COMPARE;
      h->compare_op = (uint8_t)ci->compareOp; /* the header uses VkCompareOp's numbers */
   }
   if (ci->unnormalizedCoordinates)
      h->flags |= PPU_SAMPLER_FLAG_UNNORMALIZED;
   /* samplerFilterMinmax: the texture unit's reduction field takes
    * VkSamplerReductionMode's numbers (WEIGHTED_AVERAGE 0, MIN 1, MAX 2). */
   const VkSamplerReductionModeCreateInfo *reduction =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
   if (reduction)
      h->flags |= (uint8_t)((uint32_t)reduction->reductionMode << PPU_SAMPLER_REDUCTION_SHIFT);
   h->lod_bias = ci->mipLodBias;
   h->min_lod = ci->minLod;
   h->max_lod = ci->maxLod;
   /* The texture unit takes up to ceil(max_anisotropy) probes along the
    * footprint's long axis; 1.0 is isotropic filtering. */
   h->max_anisotropy = ci->anisotropyEnable ? ci->maxAnisotropy : 1.0f;
   border_color(ci->borderColor,
                vkppu_find_in_chain(ci->pNext,
                                    VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT),
                h);
   *pSampler = vkppu_sampler_to_handle(sampler);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroySampler(VkDevice device, VkSampler sampler,
                                                const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_sampler, s, sampler);
   if (!s)
      return;
   vkppu_object_finish(&s->base);
   vkppu_device_free(dev, pAllocator, s);
}
