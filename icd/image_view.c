/* VkImageView: the image's texture header with the view's fields set
 * (format, dim and array flag, levels, layers, swizzle, aspect). The header
 * is built here, once, so writing a descriptor is a 64-byte copy; every
 * view this accepts passes the texture unit's header check
 * (hw/src/texture/tex_header.c). */
#include "vkppu_image.h"

/* VkComponentSwizzle -> the header's selector; IDENTITY is the component's
 * own channel (component 0 = R ... 3 = A). */
static unsigned swizzle_selector(VkComponentSwizzle s, unsigned component)
{
   switch (s) {
   case VK_COMPONENT_SWIZZLE_ZERO:
      return PPU_TEX_SWIZZLE_ZERO;
   case VK_COMPONENT_SWIZZLE_ONE:
      return PPU_TEX_SWIZZLE_ONE;
   case VK_COMPONENT_SWIZZLE_R:
      return PPU_TEX_SWIZZLE_R;
   case VK_COMPONENT_SWIZZLE_G:
      return PPU_TEX_SWIZZLE_G;
   case VK_COMPONENT_SWIZZLE_B:
      return PPU_TEX_SWIZZLE_B;
   case VK_COMPONENT_SWIZZLE_A:
      return PPU_TEX_SWIZZLE_A;
   default: /* IDENTITY */
      return component;
   }
}

static uint16_t header_swizzle(const VkComponentMapping *m)
{
   return (uint16_t)(swizzle_selector(m->r, 0) | swizzle_selector(m->g, 1) << 4 |
                     swizzle_selector(m->b, 2) << 8 | swizzle_selector(m->a, 3) << 12);
}

/* Whether a view type may show an image of this type and flags. A 2D or
 * 2D-array view of a 3D image (its slices as layers) needs
 * 2D_ARRAY_COMPATIBLE; VK_EXT_image_2d_view_of_3d's 2D_VIEW_COMPATIBLE
 * allows 2D views alone. */
static bool view_type_fits(VkImageViewType view, const struct vkppu_image *img)
{
   VkImageCreateFlags as_2d =
       view == VK_IMAGE_VIEW_TYPE_2D
           ? VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT
           : VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
   switch (view) {
   case VK_IMAGE_VIEW_TYPE_1D:
   case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      return img->type == VK_IMAGE_TYPE_1D;
   case VK_IMAGE_VIEW_TYPE_2D:
   case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
      return img->type == VK_IMAGE_TYPE_2D ||
             (img->type == VK_IMAGE_TYPE_3D && (img->flags & as_2d));
   case VK_IMAGE_VIEW_TYPE_CUBE:
   case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
      return img->type == VK_IMAGE_TYPE_2D && (img->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
   case VK_IMAGE_VIEW_TYPE_3D:
      return img->type == VK_IMAGE_TYPE_3D;
   default:
      return false;
   }
}

static bool view_is_array(VkImageViewType type)
{
   return type == VK_IMAGE_VIEW_TYPE_1D_ARRAY || type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ||
          type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
}

/* A 2D or 2D-array view of a 3D image: its layers are the slices of one
 * level (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT). */
static bool slices_as_layers(VkImageViewType view, const struct vkppu_image *img)
{
   return img->type == VK_IMAGE_TYPE_3D && view != VK_IMAGE_VIEW_TYPE_3D;
}

/* An uncompressed view of a block-compressed image, one texel a block
 * (VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT). */
static bool blocks_as_texels(VkFormat view, const struct vkppu_image *img)
{
   return (img->flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) &&
          vkppu_formats_block_texel_compatible(img->format, view);
}

/* The view's usage (VkImageViewUsageCreateInfo narrows the image's) must be
 * one its format can serve in the image's tiling: with EXTENDED_USAGE the
 * image may have usages only some of its view formats support. */
static const char *check_view_usage(const VkImageViewCreateInfo *ci, const struct vkppu_image *img)
{
   const VkImageViewUsageCreateInfo *view_usage =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO);
   VkImageUsageFlags usage = view_usage ? view_usage->usage : img->usage;
   if (view_usage && (usage == 0 || (usage & ~img->usage)))
      return "VkImageViewUsageCreateInfo::usage is 0 or names a usage the image lacks";
   const struct vkppu_format_info *f = vkppu_format_info(ci->format);
   VkFormatFeatureFlags features = img->tiling == VK_IMAGE_TILING_LINEAR ? f->linear : f->optimal;
   if ((usage & VK_IMAGE_USAGE_SAMPLED_BIT) && !(features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
      return "the view's usage includes SAMPLED and its format cannot be sampled";
   if ((usage & VK_IMAGE_USAGE_STORAGE_BIT) && !(features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
      return "the view's usage includes STORAGE and its format has no storage-image feature";
   return NULL;
}

/* Resolves REMAINING_* and checks the view against its image; NULL when
 * the view is one vkppu can describe, else why not. */
static const char *check_view(const VkImageViewCreateInfo *ci, const struct vkppu_image *img,
                              VkImageSubresourceRange *range)
{
   *range = ci->subresourceRange;
   if (range->levelCount == VK_REMAINING_MIP_LEVELS)
      range->levelCount = img->mip_levels - range->baseMipLevel;

   if (vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO))
      return "YCbCr conversion is not supported";
   if (!img->memory)
      return "the image is not bound to memory";
   if (!view_type_fits(ci->viewType, img))
      return "the view type does not fit the image's type (cube views need CUBE_COMPATIBLE, "
             "2D views of 3D images 2D_ARRAY_COMPATIBLE)";
   bool block_texel = blocks_as_texels(ci->format, img);
   if (ci->format != img->format && !block_texel &&
       (!(img->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) ||
        !vkppu_formats_view_compatible(img->format, ci->format)))
      return "the view format differs from the image's and is neither a compatible format of a "
             "MUTABLE_FORMAT image nor one texel a block of a BLOCK_TEXEL_VIEW_COMPATIBLE one";
   const char *usage_why = check_view_usage(ci, img);
   if (usage_why)
      return usage_why;
   if (range->levelCount < 1 || range->baseMipLevel >= img->mip_levels ||
       range->levelCount > img->mip_levels - range->baseMipLevel)
      return "levels outside the image";
   /* The header describes one level as a whole image of its own (see
    * vkppu_CreateImageView), so these views show a single level. */
   bool slices = slices_as_layers(ci->viewType, img);
   if ((slices || block_texel) && range->levelCount != 1)
      return "a 2D view of a 3D image, or an uncompressed view of a BC image, shows one level";
   uint32_t layers =
       slices ? ppu_tex_level_extent(img->extent.depth, range->baseMipLevel) : img->array_layers;
   if (range->layerCount == VK_REMAINING_ARRAY_LAYERS)
      range->layerCount = layers - range->baseArrayLayer;
   if (range->layerCount < 1 || range->baseArrayLayer >= layers ||
       range->layerCount > layers - range->baseArrayLayer)
      return "layers (or slices of a 3D level) outside the image";
   if (ci->viewType == VK_IMAGE_VIEW_TYPE_CUBE && range->layerCount != 6)
      return "a cube view has exactly 6 layers";
   if (ci->viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && range->layerCount % 6)
      return "a cube-array view has a multiple of 6 layers";
   if (!view_is_array(ci->viewType) && ci->viewType != VK_IMAGE_VIEW_TYPE_CUBE &&
       range->layerCount != 1)
      return "a view that is not an array has one layer";
   /* Depth/stencil views keep the image's format: the format check above
    * admits no other (each such format is its own class). */
   VkImageAspectFlags aspect = range->aspectMask;
   if (aspect == 0 || (aspect & ~vkppu_format_info(img->format)->aspects))
      return "the aspect mask names aspects the format does not have";
   return NULL;
}

/* A view of one level that the image's own shape cannot express (docs/
 * images.md, "Views of one level"): the header describes the level as an
 * image of one level at the level's address, with the level's extent and
 * block height, so ppu_tex_byte_offset places every texel where the
 * image's layout put it:
 * - slices of a 3D level as layers: the slices of a block-linear level are
 *   whole grids of blocks one after another, so layer_stride is the size of
 *   one slice;
 * - an uncompressed view of a BC image: rows and bytes per row of a level
 *   are the same counted in blocks or in texels of a format as large as a
 *   block, so the extent is the level's in blocks and the layer stride
 *   stays the image's. h->format is the view's already. */
static void describe_level_as_image(struct ppu_texture_header *h,
                                    const struct ppu_texture_header *whole, unsigned level)
{
   bool compressed = ppu_tex_format_is_compressed(whole->format);
   uint32_t width = ppu_tex_level_extent(whole->width, level);
   uint32_t height = ppu_tex_level_extent(whole->height, level);
   h->address = whole->address + ppu_tex_level_offset(whole, level);
   h->block_height_log2 = (uint8_t)ppu_tex_level_block_height_log2(whole, level);
   h->width = compressed ? ppu_tex_div_round_up(width, 4) : width;
   h->height = compressed ? ppu_tex_div_round_up(height, 4) : height;
   h->image_levels = 1;
   h->base_level = 0;
   h->level_count = 1;
   if (whole->dim == PPU_TEX_DIM_3D) {
      h->depth = 1;
      h->layer_stride =
          ppu_tex_level_size(whole, level) / ppu_tex_level_extent(whole->depth, level);
   }
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateImageView(VkDevice device,
                                                     const VkImageViewCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkImageView *pView)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_image, img, pCreateInfo->image);
   VkImageSubresourceRange range;
   const char *why = check_view(pCreateInfo, img, &range);
   if (why) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateImageView: view type %d, format %d of an image of format %d: %s",
                   pCreateInfo->viewType, pCreateInfo->format, img->format, why);
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   struct vkppu_image_view *view =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*view), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!view)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&view->base, VK_OBJECT_TYPE_IMAGE_VIEW, dev);
   view->image = img;
   view->type = pCreateInfo->viewType;
   view->format = pCreateInfo->format;
   view->range = range;

   /* The image's shape (address, layer stride, extent, levels, block
    * height, row pitch) stays; the view chooses what the shader sees. */
   struct ppu_texture_header *h = &view->header;
   *h = img->whole;
   h->format = (uint16_t)vkppu_format_info(pCreateInfo->format)->hw;
   switch (pCreateInfo->viewType) {
   case VK_IMAGE_VIEW_TYPE_1D:
   case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      h->dim = PPU_TEX_DIM_1D;
      break;
   case VK_IMAGE_VIEW_TYPE_3D:
      h->dim = PPU_TEX_DIM_3D;
      break;
   case VK_IMAGE_VIEW_TYPE_CUBE:
   case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
      h->dim = PPU_TEX_DIM_CUBE;
      break;
   default:
      h->dim = PPU_TEX_DIM_2D;
      break;
   }
   /* A view of only the stencil aspect reads stencil (of S8_UINT, D24S8
    * or D32S8); a depth view, or one of both aspects, reads depth. */
   h->flags = (view_is_array(pCreateInfo->viewType) ? PPU_TEX_FLAG_ARRAY : 0) |
              (range.aspectMask == VK_IMAGE_ASPECT_STENCIL_BIT ? PPU_TEX_FLAG_STENCIL : 0);
   h->swizzle = header_swizzle(&pCreateInfo->components);
   h->base_level = (uint8_t)range.baseMipLevel;
   h->level_count = (uint8_t)range.levelCount;
   h->base_layer = range.baseArrayLayer;
   h->layer_count = range.layerCount;
   /* A 4x image's header is its 1x memory image of twice the extent; the
    * view says 4x, so TLD takes a sample index and TXQ halves the size. */
   h->samples_log2 = img->samples == VK_SAMPLE_COUNT_4_BIT ? 2 : 0;
   if (slices_as_layers(pCreateInfo->viewType, img) || blocks_as_texels(pCreateInfo->format, img))
      describe_level_as_image(h, &img->whole, range.baseMipLevel);
   *pView = vkppu_image_view_to_handle(view);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyImageView(VkDevice device, VkImageView imageView,
                                                  const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_image_view, view, imageView);
   if (!view)
      return;
   vkppu_object_finish(&view->base);
   vkppu_device_free(dev, pAllocator, view);
}
