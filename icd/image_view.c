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
 * 2D-array view of a 3D image needs 2D_ARRAY_COMPATIBLE, not supported. */
static bool view_type_fits(VkImageViewType view, const struct vkppu_image *img)
{
   switch (view) {
   case VK_IMAGE_VIEW_TYPE_1D:
   case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      return img->type == VK_IMAGE_TYPE_1D;
   case VK_IMAGE_VIEW_TYPE_2D:
   case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
      return img->type == VK_IMAGE_TYPE_2D;
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

/* Resolves REMAINING_* and checks the view against its image; NULL when
 * the view is one vkppu can describe, else why not. */
static const char *check_view(const VkImageViewCreateInfo *ci, const struct vkppu_image *img,
                              VkImageSubresourceRange *range)
{
   *range = ci->subresourceRange;
   if (range->levelCount == VK_REMAINING_MIP_LEVELS)
      range->levelCount = img->mip_levels - range->baseMipLevel;
   if (range->layerCount == VK_REMAINING_ARRAY_LAYERS)
      range->layerCount = img->array_layers - range->baseArrayLayer;

   if (vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO))
      return "YCbCr conversion is not supported";
   if (!img->memory)
      return "the image is not bound to memory";
   if (!view_type_fits(ci->viewType, img))
      return "the view type does not fit the image's type (cube views need CUBE_COMPATIBLE; "
             "2D views of 3D images are not supported)";
   if (ci->format != img->format && (!(img->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) ||
                                     !vkppu_formats_view_compatible(img->format, ci->format)))
      return "the view format differs from the image's and is not a compatible format of a "
             "MUTABLE_FORMAT image";
   if (range->levelCount < 1 || range->baseMipLevel >= img->mip_levels ||
       range->levelCount > img->mip_levels - range->baseMipLevel)
      return "levels outside the image";
   if (range->layerCount < 1 || range->baseArrayLayer >= img->array_layers ||
       range->layerCount > img->array_layers - range->baseArrayLayer)
      return "layers outside the image";
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
