/* Render pass instances: vkCmdBeginRenderPass(2), vkCmdNextSubpass(2),
 * vkCmdEndRenderPass(2), and the begin and end that dynamic rendering
 * shares (cmd_rendering.c).
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
 * (cmd_resolve.c). Multiview attachments clear and resolve the layers of
 * their subpass's views. */
#include "debug_report.h"
#include "method_encoder.h"
#include "vkppu_graphics.h"

/* Whether subpass sp uses attachment a (preserving it is not a use). */
static bool subpass_uses(const struct vkppu_subpass *sp, uint32_t a)
{
   bool uses = (sp->has_depth_stencil && sp->depth_stencil.attachment == a) ||
               sp->depth_stencil_resolve.attachment == a;
   for (uint32_t k = 0; k < sp->color_count && !uses; k++)
      uses = sp->colors[k].attachment == a || (sp->resolves && sp->resolves[k].attachment == a);
   for (uint32_t k = 0; k < sp->input_count && !uses; k++)
      uses = sp->inputs[k].attachment == a;
   return uses;
}

/* Whether any subpass uses attachment a, and the views they render: the
 * load op happens where an attachment is first used (Vulkan "Load
 * Operations"), for multiview once per view, in the first subpass that
 * renders that view ("Multiview"), so it covers the union of the views.
 * An attachment no subpass uses is neither loaded nor stored. */
static bool used_views(const struct vkppu_render_pass *pass, uint32_t a, uint32_t *views)
{
   bool used = false;
   *views = 0;
   for (uint32_t i = 0; i < pass->subpass_count; i++) {
      if (subpass_uses(&pass->subpasses[i], a)) {
         used = true;
         *views |= pass->subpasses[i].view_mask;
      }
   }
   return used;
}

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
   uint32_t views;
   if (!aspects || !view || a >= value_count || !used_views(pass, a, &views))
      return; /* VUID-VkRenderPassBeginInfo-clearValueCount-00902 */
   uint32_t value[4];
   vkppu_clear_value_words(&values[a], aspects, value);
   if (!pass->multiview)
      views = 0;
   if (!views) {
      vkppu_cmd_clear_view_rect(cmd, view, aspects, area, 0, fb->layers, value);
      return;
   }
   for (; views; views &= views - 1)
      vkppu_cmd_clear_view_rect(cmd, view, aspects, area, (uint32_t)__builtin_ctz(views), 1, value);
}

void vkppu_cmd_pass_instance_begin(struct vkppu_command_buffer *cmd,
                                   const struct vkppu_render_pass *pass,
                                   const struct vkppu_framebuffer *fb, const VkRect2D *area,
                                   const VkClearValue *values, uint32_t value_count)
{
   struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   s->pass = pass;
   s->framebuffer = fb;
   s->subpass = 0;
   s->render_area = *area;
   if (!s->pass || !s->framebuffer ||
       s->framebuffer->attachment_count < s->pass->attachment_count) {
      s->pass = NULL; /* invalid: draws record nothing */
      return;
   }
   drv_emit_wait_for_idle(&cmd->pb);
   for (uint32_t a = 0; a < s->pass->attachment_count; a++)
      load_clear(cmd, s->pass, s->framebuffer, a, area, values, value_count);
}

/* Subpass contents from secondaries: their draws may not know the
 * framebuffer (VkCommandBufferInheritanceInfo::framebuffer is optional), so
 * the primary writes the subpass's targets and the render area into the
 * channel first, and such secondaries leave them (targets_inherited). */
static void targets_for_secondaries(struct vkppu_command_buffer *cmd, VkSubpassContents contents)
{
   if (contents == VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS)
      vkppu_cmd_emit_targets(cmd);
}

/* An imageless framebuffer with the views of this vkCmdBeginRenderPass,
 * in memory the command buffer owns until it is reset or freed. */
struct vkppu_imageless_framebuffer {
   struct vkppu_imageless_framebuffer *next;
   struct vkppu_framebuffer fb;
   struct vkppu_image_view *views[]; /* fb.attachment_count */
};

void vkppu_cmd_imageless_release(struct vkppu_command_buffer *cmd)
{
   while (cmd->imageless_framebuffers) {
      struct vkppu_imageless_framebuffer *f = cmd->imageless_framebuffers;
      cmd->imageless_framebuffers = f->next;
      vkppu_free(&cmd->pool->alloc, f);
   }
}

/* The framebuffer the instance renders to: `fb` itself, or for an
 * imageless one a copy with the views of VkRenderPassAttachmentBeginInfo.
 * NULL after an error (reported): the instance then records nothing. */
static const struct vkppu_framebuffer *framebuffer_with_views(struct vkppu_command_buffer *cmd,
                                                              const VkRenderPassBeginInfo *info,
                                                              const struct vkppu_render_pass *pass,
                                                              const struct vkppu_framebuffer *fb)
{
   if (!fb || !pass || !(fb->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
      return fb;
   const VkRenderPassAttachmentBeginInfo *views =
       vkppu_find_in_chain(info->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO);
   char why[160] = "";
   if (!views || views->attachmentCount != fb->attachment_count ||
       (views->attachmentCount && !views->pAttachments))
      snprintf(why, sizeof(why),
               "an imageless framebuffer needs VkRenderPassAttachmentBeginInfo with one view "
               "per attachment (%u)",
               fb->attachment_count);
   for (uint32_t a = 0; !why[0] && a < fb->attachment_count; a++)
      vkppu_framebuffer_check_view(
          fb, pass, a, vkppu_image_view_from_handle(views->pAttachments[a]), why, sizeof(why));
   if (why[0]) {
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCmdBeginRenderPass: %s; nothing is rendered", why);
      return NULL;
   }
   struct vkppu_imageless_framebuffer *f =
       vkppu_alloc(&cmd->pool->alloc, sizeof(*f) + fb->attachment_count * sizeof(f->views[0]),
                   VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!f) {
      /* vkCmd* cannot fail: vkEndCommandBuffer reports it. */
      cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return NULL;
   }
   f->next = cmd->imageless_framebuffers;
   cmd->imageless_framebuffers = f;
   f->fb = *fb;
   f->fb.attachments = f->views;
   for (uint32_t a = 0; a < fb->attachment_count; a++)
      f->views[a] = vkppu_image_view_from_handle(views->pAttachments[a]);
   return &f->fb;
}

static void begin(struct vkppu_command_buffer *cmd, const VkRenderPassBeginInfo *info,
                  VkSubpassContents contents)
{
   const struct vkppu_render_pass *pass = vkppu_render_pass_from_handle(info->renderPass);
   const struct vkppu_framebuffer *fb =
       framebuffer_with_views(cmd, info, pass, vkppu_framebuffer_from_handle(info->framebuffer));
   vkppu_cmd_pass_instance_begin(cmd, pass, fb, &info->renderArea, info->pClearValues,
                                 info->clearValueCount);
   cmd->gfx.targets_inherited = false;
   targets_for_secondaries(cmd, contents);
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
      /* Multiview: one layer per view of the subpass's view mask. */
      const char *why = NULL;
      for (uint32_t views = sp->view_mask ? sp->view_mask : 1u; views && !why; views &= views - 1) {
         const uint32_t view = sp->view_mask ? (uint32_t)__builtin_ctz(views) : 0u;
         const struct vkppu_resolve_side src = {a->image, a->format, a->range.baseMipLevel,
                                                a->range.baseArrayLayer + view};
         const struct vkppu_resolve_side dst = {b->image, b->format, b->range.baseMipLevel,
                                                b->range.baseArrayLayer + view};
         why = vkppu_cmd_resolve(cmd, &src, &dst, color ? to->resolve_mode : VK_RESOLVE_MODE_NONE,
                                 color ? VK_RESOLVE_MODE_NONE : sp->depth_resolve_mode,
                                 color ? VK_RESOLVE_MODE_NONE : sp->stencil_resolve_mode,
                                 &s->render_area, sp->view_mask ? 1u : fb->layers);
      }
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

void vkppu_cmd_pass_instance_end(struct vkppu_command_buffer *cmd)
{
   end(cmd);
}

static void next(struct vkppu_command_buffer *cmd, VkSubpassContents contents)
{
   resolve_subpass(cmd);
   drv_emit_wait_for_idle(&cmd->pb);
   if (cmd->gfx.pass && cmd->gfx.subpass + 1 < cmd->gfx.pass->subpass_count)
      cmd->gfx.subpass++;
   targets_for_secondaries(cmd, contents);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginRenderPass(VkCommandBuffer commandBuffer,
                                                    const VkRenderPassBeginInfo *pRenderPassBegin,
                                                    VkSubpassContents contents)
{
   /* Secondaries that continue the pass know it from their inheritance
    * info (command_buffer.c). */
   begin(vkppu_command_buffer_from_handle(commandBuffer), pRenderPassBegin, contents);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginRenderPass2(VkCommandBuffer commandBuffer,
                                                     const VkRenderPassBeginInfo *pRenderPassBegin,
                                                     const VkSubpassBeginInfo *pSubpassBeginInfo)
{
   begin(vkppu_command_buffer_from_handle(commandBuffer), pRenderPassBegin,
         pSubpassBeginInfo ? pSubpassBeginInfo->contents : VK_SUBPASS_CONTENTS_INLINE);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdNextSubpass(VkCommandBuffer commandBuffer,
                                                VkSubpassContents contents)
{
   next(vkppu_command_buffer_from_handle(commandBuffer), contents);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdNextSubpass2(VkCommandBuffer commandBuffer,
                                                 const VkSubpassBeginInfo *pSubpassBeginInfo,
                                                 const VkSubpassEndInfo *pSubpassEndInfo)
{
   (void)pSubpassEndInfo;
   next(vkppu_command_buffer_from_handle(commandBuffer),
        pSubpassBeginInfo ? pSubpassBeginInfo->contents : VK_SUBPASS_CONTENTS_INLINE);
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
