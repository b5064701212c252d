/* VkBufferView: a texel buffer, described to the texture unit as a header
 * of dim BUFFER (ppu/texture.h): linear, `width` elements from the view's
 * first byte, no rows, levels or layers beyond one. */
#include "vkppu_image.h"
#include "vkppu_memory.h"
#include "vkppu_physical_device.h"

/* NULL when the view is one vkppu can describe (*elements set), else why
 * not. */
static const char *check_view(const struct vkppu_device *dev, const VkBufferViewCreateInfo *ci,
                              const struct vkppu_buffer *buf, uint64_t *elements)
{
   const struct vkppu_format_info *f = vkppu_format_info(ci->format);
   VkFormatFeatureFlags needs = 0;
   if (buf->usage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT)
      needs |= VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
   if (buf->usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)
      needs |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
   if (f->hw == PPU_TEX_FORMAT_INVALID || needs == 0 || (f->buffer & needs) != needs)
      return "the format lacks the texel-buffer features the buffer's usage needs";
   if (!buf->memory)
      return "the buffer is not bound to memory";
   VkPhysicalDeviceProperties props;
   vkppu_physical_device_get_properties(dev->physical_device, &props);
   if (ci->offset % props.limits.minTexelBufferOffsetAlignment || ci->offset >= buf->size)
      return "offset beyond the buffer or not a multiple of minTexelBufferOffsetAlignment";
   uint32_t bytes = ppu_tex_format_bytes(f->hw);
   VkDeviceSize range = ci->range;
   if (range == VK_WHOLE_SIZE)
      range = (buf->size - ci->offset) / bytes * bytes;
   else if (range > buf->size - ci->offset || range % bytes)
      return "range beyond the buffer or not a multiple of the texel size";
   *elements = range / bytes;
   if (*elements < 1 || *elements > props.limits.maxTexelBufferElements)
      return "no element, or more than maxTexelBufferElements";
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateBufferView(VkDevice device,
                                                      const VkBufferViewCreateInfo *pCreateInfo,
                                                      const VkAllocationCallbacks *pAllocator,
                                                      VkBufferView *pView)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, pCreateInfo->buffer);
   uint64_t elements = 0;
   const char *why = check_view(dev, pCreateInfo, buf, &elements);
   if (why) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateBufferView: format %d, offset %llu, range %llu of a buffer of %llu "
                   "bytes: %s",
                   pCreateInfo->format, (unsigned long long)pCreateInfo->offset,
                   (unsigned long long)pCreateInfo->range, (unsigned long long)buf->size, why);
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   struct vkppu_buffer_view *view =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*view), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!view)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&view->base, VK_OBJECT_TYPE_BUFFER_VIEW, dev);
   view->format = pCreateInfo->format;
   view->va = buf->va + pCreateInfo->offset;
   view->elements = elements;

   struct ppu_texture_header *h = &view->header;
   h->address = view->va;
   h->format = (uint16_t)vkppu_format_info(pCreateInfo->format)->hw;
   h->dim = PPU_TEX_DIM_BUFFER;
   h->layout = PPU_TEX_LAYOUT_LINEAR;
   h->swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   h->width = (uint32_t)elements; /* <= maxTexelBufferElements = 2^27 */
   h->height = h->depth = 1;
   /* Never used for a texel buffer; one row of all elements keeps the
    * layout functions meaningful (ppu_tex_level_size is the view's size). */
   h->row_pitch = (uint32_t)(elements * ppu_tex_format_bytes(h->format));
   h->image_levels = h->level_count = 1;
   h->layer_count = 1;
   *pView = vkppu_buffer_view_to_handle(view);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyBufferView(VkDevice device, VkBufferView bufferView,
                                                   const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_buffer_view, view, bufferView);
   if (!view)
      return;
   vkppu_object_finish(&view->base);
   vkppu_device_free(dev, pAllocator, view);
}
