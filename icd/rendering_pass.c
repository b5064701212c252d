/* The one-subpass render pass of dynamic rendering, made from attachment
 * formats (vkppu_rendering.h). */
#include <string.h>

#include "vkppu_image.h"
#include "vkppu_rendering.h"

/* `format` keeping only the aspects that are attachments: a combined
 * depth/stencil view given as the depth attachment alone must neither clear
 * nor test stencil, and the other way round. What reads the attachment's
 * format (load-op clears, pipeline depth/stencil state) then sees only
 * those aspects; draws still write through the view. */
static VkFormat aspects_only(VkFormat format, bool depth, bool stencil)
{
   if (depth && stencil)
      return format;
   if (stencil)
      return VK_FORMAT_S8_UINT;
   switch (format) {
   case VK_FORMAT_D16_UNORM_S8_UINT:
      return VK_FORMAT_D16_UNORM;
   case VK_FORMAT_D24_UNORM_S8_UINT:
      return VK_FORMAT_X8_D24_UNORM_PACK32;
   case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return VK_FORMAT_D32_SFLOAT;
   default:
      return format;
   }
}

static struct vkppu_render_pass_attachment loaded(VkFormat format)
{
   return (struct vkppu_render_pass_attachment){
       .format = format,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .load_op = VK_ATTACHMENT_LOAD_OP_LOAD,
       .store_op = VK_ATTACHMENT_STORE_OP_STORE,
       .stencil_load_op = VK_ATTACHMENT_LOAD_OP_LOAD,
       .stencil_store_op = VK_ATTACHMENT_STORE_OP_STORE,
       .initial_layout = VK_IMAGE_LAYOUT_GENERAL,
       .final_layout = VK_IMAGE_LAYOUT_GENERAL,
   };
}

const char *vkppu_rendering_pass_init(struct vkppu_rendering_pass *r, uint32_t color_count,
                                      const VkFormat *color_formats, VkFormat depth_format,
                                      VkFormat stencil_format)
{
   memset(r, 0, sizeof(*r));
   if (color_count > VKPPU_MAX_COLOR_ATTACHMENTS)
      return "more color attachments than maxColorAttachments (8)";
   if (color_count && !color_formats)
      return "color attachments without their formats (NULL array)";
   const bool depth = depth_format != VK_FORMAT_UNDEFINED;
   const bool stencil = stencil_format != VK_FORMAT_UNDEFINED;
   if (depth && stencil && depth_format != stencil_format)
      return "the depth and stencil attachments have different formats";
   struct vkppu_subpass *sp = &r->subpass;
   sp->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
   sp->color_count = color_count;
   sp->colors = r->colors;
   for (uint32_t i = 0; i < color_count; i++) {
      r->attachments[i] = loaded(color_formats[i]);
      r->colors[i] = (struct vkppu_subpass_reference){
          .attachment = color_formats[i] ? i : VK_ATTACHMENT_UNUSED,
          .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
      };
      r->resolves[i].attachment = VK_ATTACHMENT_UNUSED;
   }
   r->pass.attachment_count = color_count;
   if (depth || stencil) {
      r->attachments[color_count] =
          loaded(aspects_only(depth ? depth_format : stencil_format, depth, stencil));
      sp->has_depth_stencil = true;
      sp->depth_stencil = (struct vkppu_subpass_reference){
          .attachment = color_count,
          .layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
      };
      r->pass.attachment_count++;
   }
   sp->depth_stencil_resolve.attachment = VK_ATTACHMENT_UNUSED;
   r->pass.attachments = r->attachments;
   r->pass.subpass_count = 1;
   r->pass.subpasses = sp;
   return NULL;
}
