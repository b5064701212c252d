/* VkImage: checked against what the format table and the limits allow,
 * then laid out the way the hardware reads it. The image's texture header
 * `whole` is the layout (ppu/texture.h): optimal tiling is block-linear
 * with a block height chosen from the first level's rows, linear tiling has
 * 64-byte aligned rows. docs/images.md describes both. */
#include "vkppu_image.h"

static uint64_t align_up(uint64_t v, uint64_t alignment)
{
   return (v + alignment - 1) / alignment * alignment;
}

void vkppu_image_init_layout(struct vkppu_image *img, const VkImageCreateInfo *ci)
{
   img->flags = ci->flags;
   img->type = ci->imageType;
   img->format = ci->format;
   img->extent = ci->extent;
   img->mip_levels = ci->mipLevels;
   img->array_layers = ci->arrayLayers;
   img->tiling = ci->tiling;
   img->usage = ci->usage;
   img->samples = ci->samples;

   struct ppu_texture_header *h = &img->whole;
   memset(h, 0, sizeof(*h));
   h->format = (uint16_t)vkppu_format_info(ci->format)->hw;
   /* A cube-compatible image is 2D with layers: "cube" is a view's type. */
   h->dim = ci->imageType == VK_IMAGE_TYPE_1D   ? PPU_TEX_DIM_1D
            : ci->imageType == VK_IMAGE_TYPE_3D ? PPU_TEX_DIM_3D
                                                : PPU_TEX_DIM_2D;
   h->swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   /* `whole` is a view of everything, so an image with layers is an array. */
   h->flags = h->dim != PPU_TEX_DIM_3D && ci->arrayLayers > 1 ? PPU_TEX_FLAG_ARRAY : 0;
   const uint32_t scale = vkppu_image_sample_scale(img);
   h->width = ci->extent.width * scale;
   h->height = h->dim == PPU_TEX_DIM_1D ? 1 : ci->extent.height * scale;
   h->depth = h->dim == PPU_TEX_DIM_3D ? ci->extent.depth : 1;
   h->image_levels = (uint8_t)ci->mipLevels;
   h->level_count = (uint8_t)ci->mipLevels;
   h->layer_count = ci->arrayLayers;

   if (ci->tiling == VK_IMAGE_TILING_LINEAR) {
      h->layout = PPU_TEX_LAYOUT_LINEAR;
      h->row_pitch =
          (uint32_t)align_up(ppu_tex_level_row_bytes(h, 0), VKPPU_LINEAR_ROW_PITCH_ALIGN);
      img->alignment = VKPPU_LINEAR_IMAGE_ALIGN;
   } else {
      h->layout = PPU_TEX_LAYOUT_BLOCK_LINEAR;
      /* As real GPUs choose it: the tallest block, up to 32 GOBs, of which
       * the first level's rows fill more than half (a small image is not
       * padded to a tall block). The layout lowers it again for each
       * smaller level (ppu_tex_level_block_height_log2). */
      h->block_height_log2 = PPU_TEX_MAX_BLOCK_HEIGHT_LOG2;
      h->block_height_log2 = (uint8_t)ppu_tex_level_block_height_log2(h, 0);
      img->alignment = VKPPU_BLOCK_LINEAR_IMAGE_ALIGN;
   }
   /* A multiple of 512, so every layer starts GOB- and texel-aligned as
    * the header check requires (linear images have one layer). */
   h->layer_stride = ppu_tex_layer_size(h);
   img->size = align_up(h->layer_stride * ci->arrayLayers, img->alignment);
}

/* What vkCreateImage refuses, and with which result: flags and chained
 * structs of features the device lacks give FEATURE_NOT_PRESENT, anything
 * else vkGetPhysicalDeviceImageFormatProperties would not allow gives
 * FORMAT_NOT_SUPPORTED (a valid application sees neither), and an image
 * beyond maxResourceSize OUT_OF_DEVICE_MEMORY. */
static VkResult check_create_info(struct vkppu_device *dev, const VkImageCreateInfo *ci,
                                  const char **why)
{
   const VkExternalMemoryImageCreateInfo *external =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO);
   if (external && external->handleTypes) {
      *why = "external memory is not supported";
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   if (ci->flags & ~VKPPU_IMAGE_CREATE_SUPPORTED_FLAGS) {
      *why = "a create flag is not supported (sparse, protected, split-instance, ...)";
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   VkImageFormatProperties props;
   *why = vkppu_image_format_support(dev->physical_device, ci->format, ci->imageType, ci->tiling,
                                     ci->usage, ci->flags, &props);
   if (*why)
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   const VkExtent3D *e = &ci->extent;
   if (!(ci->samples & props.sampleCounts) || (ci->samples & (ci->samples - 1))) {
      *why = "the sample count is not in sampleCounts (4x: optimal 2D colour or depth/stencil "
             "attachments, sampled only in formats sampled at 1x, not storage images)";
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   if (ci->samples != VK_SAMPLE_COUNT_1_BIT &&
       (ci->mipLevels != 1 || e->width > VKPPU_MAX_MULTISAMPLE_EXTENT ||
        e->height > VKPPU_MAX_MULTISAMPLE_EXTENT)) {
      *why = "a 4x image has one mip level and is at most 8192x8192 (its texels are a 1x image "
             "of twice the width and height)";
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   uint32_t largest = e->width > e->height ? e->width : e->height;
   largest = largest > e->depth ? largest : e->depth;
   if (e->width < 1 || e->height < 1 || e->depth < 1 || e->width > props.maxExtent.width ||
       e->height > props.maxExtent.height || e->depth > props.maxExtent.depth)
      *why = "extent 0 or beyond the format's maxExtent";
   else if (ci->mipLevels < 1 || ci->mipLevels > props.maxMipLevels ||
            ci->mipLevels > vkppu_mip_chain_levels(largest))
      *why = "mipLevels 0, beyond the full mip chain, or more than the tiling allows";
   else if (ci->arrayLayers < 1 || ci->arrayLayers > props.maxArrayLayers)
      *why = "arrayLayers 0 or beyond maxArrayLayers";
   else if ((ci->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
            (e->width != e->height || ci->arrayLayers < 6))
      *why = "a cube-compatible image needs square faces and at least 6 layers";
   if (*why)
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   /* Larger than maxResourceSize: no allocation could hold it, and
    * vkCreateImage may say so with OUT_OF_DEVICE_MEMORY. */
   struct vkppu_image layout;
   vkppu_image_init_layout(&layout, ci);
   if (layout.size > props.maxResourceSize) {
      *why = "the image is larger than maxResourceSize";
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateImage(VkDevice device,
                                                 const VkImageCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkImage *pImage)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const char *why = NULL;
   VkResult r = check_create_info(dev, pCreateInfo, &why);
   if (r != VK_SUCCESS) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateImage: format %d, type %d, tiling %d, usage 0x%x, flags 0x%x, "
                   "extent %ux%ux%u, %u levels, %u layers, %u samples: %s",
                   pCreateInfo->format, pCreateInfo->imageType, pCreateInfo->tiling,
                   pCreateInfo->usage, pCreateInfo->flags, pCreateInfo->extent.width,
                   pCreateInfo->extent.height, pCreateInfo->extent.depth, pCreateInfo->mipLevels,
                   pCreateInfo->arrayLayers, pCreateInfo->samples, why);
      return r;
   }
   struct vkppu_image *img =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*img), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!img)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&img->base, VK_OBJECT_TYPE_IMAGE, dev);
   vkppu_image_init_layout(img, pCreateInfo);
   *pImage = vkppu_image_to_handle(img);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyImage(VkDevice device, VkImage image,
                                              const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   if (!img)
      return;
   vkppu_object_finish(&img->base);
   vkppu_device_free(dev, pAllocator, img);
}

/* Linear images: what the application needs to write texels through a
 * mapping. Optimal images: the spec leaves the answer undefined; vkppu
 * gives the offset and size of the level's block-linear memory, with row
 * and depth pitches 0 (rows are not evenly spaced in block-linear). */
VKAPI_ATTR void VKAPI_CALL vkppu_GetImageSubresourceLayout(VkDevice device, VkImage image,
                                                           const VkImageSubresource *pSubresource,
                                                           VkSubresourceLayout *pLayout)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   const struct ppu_texture_header *h = &img->whole;
   unsigned level = pSubresource->mipLevel;
   *pLayout = (VkSubresourceLayout){
       .offset = pSubresource->arrayLayer * h->layer_stride + ppu_tex_level_offset(h, level),
       .size = ppu_tex_level_size(h, level),
       .arrayPitch = h->layer_stride,
   };
   if (h->layout == PPU_TEX_LAYOUT_LINEAR) {
      pLayout->rowPitch = h->row_pitch;
      pLayout->depthPitch = (VkDeviceSize)h->row_pitch * ppu_tex_level_rows(h, level);
   }
}
