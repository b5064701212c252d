/* vkCreateFramebuffer / vkDestroyFramebuffer (vkppu_render_pass.h).
 *
 * A framebuffer keeps its size and the image views it binds to a render
 * pass's attachments. Imageless framebuffers (VK_KHR_imageless_framebuffer,
 * core 1.2) are not reported, so every attachment is a view. As in
 * render_pass.c, what the object depends on is checked and a violation is
 * reported and fails with VK_ERROR_UNKNOWN rather than crashing later. */
#include <stdarg.h>
#include <stdio.h>

#include "vkppu_image.h"
#include "vkppu_render_pass.h"

static VkResult invalid(struct vkppu_device *dev, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static VkResult invalid(struct vkppu_device *dev, const char *fmt, ...)
{
   char what[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                "vkCreateFramebuffer: %s", what);
   return VK_ERROR_UNKNOWN;
}

/* Whether a subpass reads or writes attachment `a`. Layer counts are only
 * required of these (VUID-VkFramebufferCreateInfo-renderPass-04536). */
static bool attachment_used(const struct vkppu_render_pass *pass, uint32_t a)
{
   for (uint32_t s = 0; s < pass->subpass_count; s++) {
      const struct vkppu_subpass *sp = &pass->subpasses[s];
      for (uint32_t i = 0; i < sp->input_count; i++)
         if (sp->inputs[i].attachment == a)
            return true;
      for (uint32_t i = 0; i < sp->color_count; i++)
         if (sp->colors[i].attachment == a || (sp->resolves && sp->resolves[i].attachment == a))
            return true;
      if (sp->has_depth_stencil && sp->depth_stencil.attachment == a)
         return true;
   }
   return false;
}

/* Whether view `v` can be attachment `a` of `pass` in a framebuffer of this
 * size: one mip level, and, if a subpass uses it, big enough at that level
 * and with a layer for every framebuffer layer or every view a multiview
 * subpass renders (spec, VkFramebufferCreateInfo). */
static VkResult check_attachment(struct vkppu_device *dev, const VkFramebufferCreateInfo *ci,
                                 const struct vkppu_render_pass *pass, uint32_t a,
                                 const struct vkppu_image_view *v)
{
   if (!v)
      return invalid(dev, "attachment %u is VK_NULL_HANDLE", a);
   if (v->range.levelCount != 1)
      return invalid(dev, "attachment %u views %u mip levels; an attachment is one", a,
                     v->range.levelCount);
   /* Size and layers are only required of attachments a subpass uses
    * (VUID-VkFramebufferCreateInfo-flags-04533 and its siblings). */
   if (!attachment_used(pass, a))
      return VK_SUCCESS;
   const struct vkppu_image *img = v->image;
   uint32_t level = v->range.baseMipLevel;
   uint32_t w = img->extent.width >> level, h = img->extent.height >> level;
   w = w ? w : 1;
   h = h ? h : 1;
   if (w < ci->width || h < ci->height)
      return invalid(dev, "attachment %u is %ux%u at its level, smaller than the %ux%u framebuffer",
                     a, w, h, ci->width, ci->height);
   uint32_t need_layers = ci->layers;
   if (pass->multiview) {
      uint32_t views = 0;
      for (uint32_t s = 0; s < pass->subpass_count; s++)
         views |= pass->subpasses[s].view_mask;
      /* Highest view index + 1: each view renders to its own layer. */
      need_layers = 32u - (uint32_t)__builtin_clz(views);
   }
   if (v->range.layerCount < need_layers)
      return invalid(dev, "attachment %u has %u layers; the framebuffer needs %u", a,
                     v->range.layerCount, need_layers);
   return VK_SUCCESS;
}

static VkResult check_create_info(struct vkppu_device *dev, const VkFramebufferCreateInfo *ci,
                                  const struct vkppu_render_pass *pass)
{
   if (ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT)
      return invalid(dev, "imageless framebuffers are not supported (imagelessFramebuffer "
                          "is VK_FALSE)");
   if (!pass)
      return invalid(dev, "renderPass is VK_NULL_HANDLE");
   if (ci->width < 1 || ci->height < 1 || ci->layers < 1 ||
       ci->width > VKPPU_MAX_FRAMEBUFFER_SIZE || ci->height > VKPPU_MAX_FRAMEBUFFER_SIZE ||
       ci->layers > VKPPU_MAX_FRAMEBUFFER_LAYERS)
      return invalid(dev,
                     "size %ux%u with %u layers is outside 1..%u x 1..%u x 1..%u (maxFramebuffer*)",
                     ci->width, ci->height, ci->layers, VKPPU_MAX_FRAMEBUFFER_SIZE,
                     VKPPU_MAX_FRAMEBUFFER_SIZE, VKPPU_MAX_FRAMEBUFFER_LAYERS);
   if (pass->multiview && ci->layers != 1)
      return invalid(dev, "%u layers for a multiview render pass: the views pick the layers",
                     ci->layers);
   if (ci->attachmentCount != pass->attachment_count)
      return invalid(dev, "%u attachments for a render pass that has %u", ci->attachmentCount,
                     pass->attachment_count);
   if (ci->attachmentCount && !ci->pAttachments)
      return invalid(dev, "pAttachments is NULL");
   for (uint32_t a = 0; a < ci->attachmentCount; a++) {
      VkResult r =
          check_attachment(dev, ci, pass, a, vkppu_image_view_from_handle(ci->pAttachments[a]));
      if (r != VK_SUCCESS)
         return r;
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateFramebuffer(VkDevice device,
                                                       const VkFramebufferCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkFramebuffer *pFramebuffer)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_render_pass, pass, pCreateInfo->renderPass);
   VkResult r = check_create_info(dev, pCreateInfo, pass);
   if (r != VK_SUCCESS)
      return r;
   size_t size = sizeof(struct vkppu_framebuffer) +
                 (size_t)pCreateInfo->attachmentCount * sizeof(struct vkppu_image_view *);
   struct vkppu_framebuffer *fb =
       vkppu_device_zalloc(dev, pAllocator, size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!fb)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&fb->base, VK_OBJECT_TYPE_FRAMEBUFFER, dev);
   fb->flags = pCreateInfo->flags;
   fb->width = pCreateInfo->width;
   fb->height = pCreateInfo->height;
   fb->layers = pCreateInfo->layers;
   fb->attachment_count = pCreateInfo->attachmentCount;
   fb->attachments = (struct vkppu_image_view **)(void *)(fb + 1);
   for (uint32_t a = 0; a < fb->attachment_count; a++)
      fb->attachments[a] = vkppu_image_view_from_handle(pCreateInfo->pAttachments[a]);
   *pFramebuffer = vkppu_framebuffer_to_handle(fb);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                                    const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_framebuffer, fb, framebuffer);
   if (!fb)
      return;
   vkppu_object_finish(&fb->base);
   vkppu_device_free(dev, pAllocator, fb);
}
