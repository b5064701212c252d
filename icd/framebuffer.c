/* vkCreateFramebuffer / vkDestroyFramebuffer (vkppu_render_pass.h).
 *
 * A framebuffer keeps its size and the image views it binds to a render
 * pass's attachments; an imageless one (VK_KHR_imageless_framebuffer, core
 * 1.2) keeps none and checks the descriptions of its attachments, and the
 * views come with vkCmdBeginRenderPass (cmd_render_pass.c). As in
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

/* Whether an attachment of w x h texels and `layer_count` layers at its
 * level can be attachment `a` of `pass` in a framebuffer of fb_w x fb_h x
 * fb_layers: if a subpass uses it, big enough and with a layer for every
 * framebuffer layer or every view a multiview subpass renders (spec,
 * VkFramebufferCreateInfo). NULL if so, else why not, in `why`. */
static const char *check_extent(uint32_t fb_w, uint32_t fb_h, uint32_t fb_layers,
                                const struct vkppu_render_pass *pass, uint32_t a, uint32_t w,
                                uint32_t h, uint32_t layer_count, char *why, size_t why_size)
{
   /* Size and layers are only required of attachments a subpass uses
    * (VUID-VkFramebufferCreateInfo-flags-04533 and its siblings). */
   if (!attachment_used(pass, a))
      return NULL;
   if (w < fb_w || h < fb_h) {
      snprintf(why, why_size,
               "attachment %u is %ux%u at its level, smaller than the %ux%u "
               "framebuffer",
               a, w, h, fb_w, fb_h);
      return why;
   }
   uint32_t need_layers = fb_layers;
   if (pass->multiview) {
      uint32_t views = 0;
      for (uint32_t s = 0; s < pass->subpass_count; s++)
         views |= pass->subpasses[s].view_mask;
      /* Highest view index + 1: each view renders to its own layer. */
      need_layers = 32u - (uint32_t)__builtin_clz(views);
   }
   if (layer_count < need_layers) {
      snprintf(why, why_size, "attachment %u has %u layers; the framebuffer needs %u", a,
               layer_count, need_layers);
      return why;
   }
   return NULL;
}

const char *vkppu_framebuffer_check_view(const struct vkppu_framebuffer *fb,
                                         const struct vkppu_render_pass *pass, uint32_t a,
                                         const struct vkppu_image_view *v, char *why,
                                         size_t why_size)
{
   if (!v) {
      snprintf(why, why_size, "attachment %u is VK_NULL_HANDLE", a);
      return why;
   }
   if (v->range.levelCount != 1) {
      snprintf(why, why_size, "attachment %u views %u mip levels; an attachment is one", a,
               v->range.levelCount);
      return why;
   }
   const struct vkppu_image *img = v->image;
   uint32_t level = v->range.baseMipLevel;
   uint32_t w = img->extent.width >> level, h = img->extent.height >> level;
   return check_extent(fb->width, fb->height, fb->layers, pass, a, w ? w : 1, h ? h : 1,
                       v->range.layerCount, why, why_size);
}

/* VkFramebufferAttachmentsCreateInfo of an imageless framebuffer: one
 * description per attachment of the pass, each large enough (the views
 * given at vkCmdBeginRenderPass are checked again there). */
static VkResult check_imageless(struct vkppu_device *dev, const VkFramebufferCreateInfo *ci,
                                const struct vkppu_render_pass *pass)
{
   const VkFramebufferAttachmentsCreateInfo *infos =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO);
   if (!infos)
      return invalid(dev, "IMAGELESS without VkFramebufferAttachmentsCreateInfo");
   if (infos->attachmentImageInfoCount != pass->attachment_count ||
       (infos->attachmentImageInfoCount && !infos->pAttachmentImageInfos))
      return invalid(dev, "%u attachment image infos for a render pass that has %u",
                     infos->attachmentImageInfoCount, pass->attachment_count);
   for (uint32_t a = 0; a < infos->attachmentImageInfoCount; a++) {
      const VkFramebufferAttachmentImageInfo *i = &infos->pAttachmentImageInfos[a];
      char why[160];
      if (check_extent(ci->width, ci->height, ci->layers, pass, a, i->width, i->height,
                       i->layerCount, why, sizeof(why)))
         return invalid(dev, "%s", why);
   }
   return VK_SUCCESS;
}

static VkResult check_create_info(struct vkppu_device *dev, const VkFramebufferCreateInfo *ci,
                                  const struct vkppu_render_pass *pass)
{
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
   if (ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT)
      return check_imageless(dev, ci, pass);
   if (ci->attachmentCount && !ci->pAttachments)
      return invalid(dev, "pAttachments is NULL");
   const struct vkppu_framebuffer fb = {
       .width = ci->width, .height = ci->height, .layers = ci->layers};
   for (uint32_t a = 0; a < ci->attachmentCount; a++) {
      char why[160];
      if (vkppu_framebuffer_check_view(
              &fb, pass, a, vkppu_image_view_from_handle(ci->pAttachments[a]), why, sizeof(why)))
         return invalid(dev, "%s", why);
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
   /* An imageless framebuffer's views come with each vkCmdBeginRenderPass. */
   const bool imageless = pCreateInfo->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
   for (uint32_t a = 0; a < fb->attachment_count; a++)
      fb->attachments[a] =
          imageless ? NULL : vkppu_image_view_from_handle(pCreateInfo->pAttachments[a]);
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
