/* Render pass instances: vkCmdBeginRenderPass(2), vkCmdNextSubpass(2),
 * vkCmdEndRenderPass(2).
 *
 * Beginning records the pass, framebuffer and render area that draws take
 * their targets from (cmd_draw.c) and performs the load op CLEAR of every
 * attachment over the render area (cmd_clear_rect.c). Clearing all of them
 * at the start is what Vulkan's "first use" rule amounts to: nothing can
 * touch an attachment before the subpass that first uses it. LOAD needs
 * nothing, DONT_CARE leaves the contents as they are (any contents are
 * allowed), and every store op keeps what the ROP wrote in memory. Subpass
 * boundaries and the end of the pass are WAIT_FOR_IDLE, which covers every
 * subpass dependency (the functional model runs each draw to completion
 * anyway). The end of each subpass resolves its 4x colour attachments into
 * their resolve attachments, and its depth/stencil attachment into the
 * depth/stencil resolve attachment, with RESOLVE over the render area
 * (cmd_resolve.c). */
#include "debug_report.h"
#include "method_encoder.h"
#include "vkppu_graphics.h"

/* The load-op clears of one attachment over the render area. */
static void load_clear(struct vkppu_command_buffer *cmd, const struct vkppu_render_pass *pass,
                       const struct vkppu_framebuffer *fb, uint32_t a, const VkRect2D *area,
                       const VkClearValue *values, uint32_t value_count)
{
   const struct vkppu_render_pass_attachment *att = &pass->attachments[a];
   const struct vkppu_image_view *view = fb->attachments[a];
   VkImageAspectFlags has = vkppu_format_info(att->format)->aspects;
   VkImageAspectFlags aspects = 0;
   if ((has & (VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT)) &&
       att->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
      aspects |= has & (VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT);
   if ((has & VK_IMAGE_ASPECT_STENCIL_BIT) && att->stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
      aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
   if (!aspects || !view || a >= value_count)
      return; /* VUID-VkRenderPassBeginInfo-clearValueCount-00902 */
   uint32_t value[4];
   vkppu_clear_value_words(&values[a], aspects, value);
   vkppu_cmd_clear_view_rect(cmd, view, aspects, area, 0, fb->layers, value);
}

static void begin(struct vkppu_command_buffer *cmd, const VkRenderPassBeginInfo *info)
{
   struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   s->pass = vkppu_render_pass_from_handle(info->renderPass);
   s->framebuffer = vkppu_framebuffer_from_handle(info->framebuffer);
   s->subpass = 0;
   s->render_area = info->renderArea;
   if (!s->pass || !s->framebuffer ||
       s->framebuffer->attachment_count < s->pass->attachment_count) {
      s->pass = NULL; /* invalid: draws record nothing */
      return;
   }
   drv_emit_wait_for_idle(&cmd->pb);
   for (uint32_t a = 0; a < s->pass->attachment_count; a++)
      load_clear(cmd, s->pass, s->framebuffer, a, &info->renderArea, info->pClearValues,
                 info->clearValueCount);
}

/* The resolves of the current subpass: each colour attachment with a
 * resolve attachment (its reference's mode), then the depth/stencil
 * attachment with the subpass's depth and stencil modes, over the render
 * area and the framebuffer's layers. */
static void resolve_subpass(struct vkppu_command_buffer *cmd)
{
   const struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   if (!s->pass || !s->framebuffer)
      return;
   const struct vkppu_subpass *sp = &s->pass->subpasses[s->subpass];
   const struct vkppu_framebuffer *fb = s->framebuffer;
   for (uint32_t i = 0; i <= sp->color_count; i++) {
      const bool color = i < sp->color_count;
      const struct vkppu_subpass_reference *from = color ? &sp->colors[i] : &sp->depth_stencil;
      const struct vkppu_subpass_reference *to =
          color ? (sp->resolves ? &sp->resolves[i] : NULL) : &sp->depth_stencil_resolve;
      if ((!color && !sp->has_depth_stencil) || !to || to->attachment >= fb->attachment_count ||
          from->attachment >= fb->attachment_count)
         continue;
      const struct vkppu_image_view *a = fb->attachments[from->attachment];
      const struct vkppu_image_view *b = fb->attachments[to->attachment];
      const struct vkppu_resolve_side src = {a->image, a->format, a->range.baseMipLevel,
                                             a->range.baseArrayLayer};
      const struct vkppu_resolve_side dst = {b->image, b->format, b->range.baseMipLevel,
                                             b->range.baseArrayLayer};
      const char *why = vkppu_cmd_resolve(
          cmd, &src, &dst, color ? to->resolve_mode : VK_RESOLVE_MODE_NONE,
          color ? VK_RESOLVE_MODE_NONE : sp->depth_resolve_mode,
          color ? VK_RESOLVE_MODE_NONE : sp->stencil_resolve_mode, &s->render_area, fb->layers);
      if (why)
         vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "end of subpass %u: resolve of attachment %u into %u: %s; not resolved",
                      s->subpass, from->attachment, to->attachment, why);
   }
}

static void end(struct vkppu_command_buffer *cmd)
{
   resolve_subpass(cmd);
   drv_emit_wait_for_idle(&cmd->pb);
   cmd->gfx.pass = NULL;
   cmd->gfx.framebuffer = NULL;
}

static void next(struct vkppu_command_buffer *cmd)
{
   resolve_subpass(cmd);
   drv_emit_wait_for_idle(&cmd->pb);
   if (cmd->gfx.pass && cmd->gfx.subpass + 1 < cmd->gfx.pass->subpass_count)
      cmd->gfx.subpass++;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginRenderPass(VkCommandBuffer commandBuffer,
                                                    const VkRenderPassBeginInfo *pRenderPassBegin,
                                                    VkSubpassContents contents)
{
   /* Secondaries that continue the pass know it from their inheritance
    * info (command_buffer.c). */
   (void)contents;
   begin(vkppu_command_buffer_from_handle(commandBuffer), pRenderPassBegin);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginRenderPass2(VkCommandBuffer commandBuffer,
                                                     const VkRenderPassBeginInfo *pRenderPassBegin,
                                                     const VkSubpassBeginInfo *pSubpassBeginInfo)
{
   (void)pSubpassBeginInfo;
   begin(vkppu_command_buffer_from_handle(commandBuffer), pRenderPassBegin);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdNextSubpass(VkCommandBuffer commandBuffer,
                                                VkSubpassContents contents)
{
   (void)contents;
   next(vkppu_command_buffer_from_handle(commandBuffer));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdNextSubpass2(VkCommandBuffer commandBuffer,
                                                 const VkSubpassBeginInfo *pSubpassBeginInfo,
                                                 const VkSubpassEndInfo *pSubpassEndInfo)
{
   (void)pSubpassBeginInfo;
   (void)pSubpassEndInfo;
   next(vkppu_command_buffer_from_handle(commandBuffer));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndRenderPass(VkCommandBuffer commandBuffer)
{
   end(vkppu_command_buffer_from_handle(commandBuffer));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndRenderPass2(VkCommandBuffer commandBuffer,
                                                   const VkSubpassEndInfo *pSubpassEndInfo)
{
   (void)pSubpassEndInfo;
   end(vkppu_command_buffer_from_handle(commandBuffer));
}
