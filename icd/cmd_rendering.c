/* Dynamic rendering in command buffers: vkCmdBeginRendering,
 * vkCmdEndRendering (core 1.3 names; VK_KHR_dynamic_rendering's KHR ones
 * resolve to them) and secondaries recorded with
 * VkCommandBufferInheritanceRenderingInfo.
 *
 * Beginning makes, in memory the command buffer owns until it is reset or
 * freed, a one-subpass render pass (vkppu_rendering.h) and a framebuffer
 * of the given views, and runs the same begin and end as a render pass
 * instance (cmd_render_pass.c): load-op clears over the render area, draws
 * into the subpass, resolves at the end of the subpass. A resumed instance
 * (VK_RENDERING_RESUMING_BIT) loads every attachment, since the instance it
 * continues already cleared them, and a suspending one
 * (VK_RENDERING_SUSPENDING_BIT) has no resolves: the instance that
 * finishes the work resolves, once.
 *
 * A secondary cannot know the views, only their formats. With
 * VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT the primary writes the
 * targets and render area into the channel at vkCmdBeginRendering; the
 * secondary's segments run next in the same channel, and its draws leave
 * those words as the primary set them (cmd_draw.c). */
#include "vkppu_graphics.h"
#include "vkppu_rendering.h"

/* One render pass instance's objects, in the command buffer's list. */
struct vkppu_rendering_instance {
   struct vkppu_rendering_instance *next;
   struct vkppu_rendering_pass r;
   struct vkppu_framebuffer fb;
   struct vkppu_image_view *views[VKPPU_RENDERING_MAX_ATTACHMENTS];
   VkClearValue clear[VKPPU_RENDERING_MAX_ATTACHMENTS];
};

/* An error of the application's, through the debug messenger. */
#define report(cmd, ...)                                                                           \
   vkppu_report((cmd)->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,       \
                __VA_ARGS__)

static struct vkppu_rendering_instance *instance_new(struct vkppu_command_buffer *cmd)
{
   struct vkppu_rendering_instance *in =
       vkppu_alloc(&cmd->pool->alloc, sizeof(*in), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!in) {
      /* vkCmd* cannot fail: vkEndCommandBuffer reports it. */
      cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return NULL;
   }
   in->next = cmd->rendering;
   cmd->rendering = in;
   return in;
}

void vkppu_cmd_rendering_release(struct vkppu_command_buffer *cmd)
{
   while (cmd->rendering) {
      struct vkppu_rendering_instance *in = cmd->rendering;
      cmd->rendering = in->next;
      vkppu_free(&cmd->pool->alloc, in);
   }
}

static VkFormat view_format(const VkRenderingAttachmentInfo *a)
{
   const struct vkppu_image_view *v = a ? vkppu_image_view_from_handle(a->imageView) : NULL;
   return v ? v->format : VK_FORMAT_UNDEFINED;
}

/* Adds the resolve attachment of `a` to in's pass; its index, or
 * VK_ATTACHMENT_UNUSED when `a` resolves nothing. */
static uint32_t add_resolve(struct vkppu_rendering_instance *in, const VkRenderingAttachmentInfo *a)
{
   struct vkppu_image_view *v = vkppu_image_view_from_handle(a->resolveImageView);
   if (a->resolveMode == VK_RESOLVE_MODE_NONE || !v)
      return VK_ATTACHMENT_UNUSED;
   uint32_t i = in->r.pass.attachment_count++;
   in->r.attachments[i] = (struct vkppu_render_pass_attachment){
       .format = v->format,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .load_op = VK_ATTACHMENT_LOAD_OP_LOAD,
       .store_op = VK_ATTACHMENT_STORE_OP_STORE,
       .stencil_load_op = VK_ATTACHMENT_LOAD_OP_LOAD,
       .stencil_store_op = VK_ATTACHMENT_STORE_OP_STORE,
       .initial_layout = a->resolveImageLayout,
       .final_layout = a->resolveImageLayout,
   };
   in->views[i] = v;
   return i;
}

/* The resolves of a render pass instance that does not suspend. */
static bool add_resolves(struct vkppu_command_buffer *cmd, struct vkppu_rendering_instance *in,
                         const VkRenderingInfo *info)
{
   struct vkppu_subpass *sp = &in->r.subpass;
   for (uint32_t i = 0; i < info->colorAttachmentCount; i++) {
      const VkRenderingAttachmentInfo *a = &info->pColorAttachments[i];
      if (a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveMode != VK_RESOLVE_MODE_AVERAGE_BIT &&
          a->resolveMode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT) {
         report(cmd,
                "vkCmdBeginRendering: color attachment %u has resolve mode 0x%x; color "
                "resolves are AVERAGE or SAMPLE_ZERO",
                i, a->resolveMode);
         return false;
      }
      if (sp->colors[i].attachment == VK_ATTACHMENT_UNUSED)
         continue;
      in->r.resolves[i] = (struct vkppu_subpass_reference){
          .attachment = add_resolve(in, a),
          .layout = a->resolveImageLayout,
          .resolve_mode = a->resolveMode,
      };
      if (in->r.resolves[i].attachment != VK_ATTACHMENT_UNUSED)
         sp->resolves = in->r.resolves;
   }
   const VkRenderingAttachmentInfo *d = info->pDepthAttachment, *s = info->pStencilAttachment;
   if (d && d->resolveMode != VK_RESOLVE_MODE_NONE &&
       !vkppu_resolve_mode_supported(d->resolveMode, VKPPU_DEPTH_RESOLVE_MODES)) {
      report(cmd, "vkCmdBeginRendering: depth resolve mode 0x%x is not one of 0x%x", d->resolveMode,
             VKPPU_DEPTH_RESOLVE_MODES);
      return false;
   }
   if (s && s->resolveMode != VK_RESOLVE_MODE_NONE &&
       !vkppu_resolve_mode_supported(s->resolveMode, VKPPU_STENCIL_RESOLVE_MODES)) {
      report(cmd, "vkCmdBeginRendering: stencil resolve mode 0x%x is not one of 0x%x",
             s->resolveMode, VKPPU_STENCIL_RESOLVE_MODES);
      return false;
   }
   /* Depth and stencil are one view, and so is their resolve
    * (VUID-VkRenderingInfo-pDepthAttachment-06104). */
   const bool depth = view_format(d) && d->resolveMode && d->resolveImageView;
   const bool stencil = view_format(s) && s->resolveMode && s->resolveImageView;
   if (depth || stencil) {
      sp->depth_stencil_resolve = (struct vkppu_subpass_reference){
          .attachment = add_resolve(in, depth ? d : s),
          .layout = (depth ? d : s)->resolveImageLayout,
      };
      sp->depth_resolve_mode = depth ? d->resolveMode : VK_RESOLVE_MODE_NONE;
      sp->stencil_resolve_mode = stencil ? s->resolveMode : VK_RESOLVE_MODE_NONE;
   }
   return true;
}

/* Load ops and clear values of the attachments; a resumed instance loads. */
static void set_load_ops(struct vkppu_rendering_instance *in, const VkRenderingInfo *info)
{
   const bool resuming = info->flags & VK_RENDERING_RESUMING_BIT;
   for (uint32_t i = 0; i < info->colorAttachmentCount; i++) {
      const VkRenderingAttachmentInfo *a = &info->pColorAttachments[i];
      in->r.attachments[i].load_op = resuming ? VK_ATTACHMENT_LOAD_OP_LOAD : a->loadOp;
      in->r.attachments[i].store_op = a->storeOp;
      in->clear[i] = a->clearValue;
      in->views[i] = vkppu_image_view_from_handle(a->imageView);
   }
   if (!in->r.subpass.has_depth_stencil)
      return;
   const uint32_t ds = info->colorAttachmentCount;
   struct vkppu_render_pass_attachment *att = &in->r.attachments[ds];
   const VkRenderingAttachmentInfo *d = info->pDepthAttachment, *s = info->pStencilAttachment;
   if (view_format(d)) {
      att->load_op = resuming ? VK_ATTACHMENT_LOAD_OP_LOAD : d->loadOp;
      att->store_op = d->storeOp;
      in->clear[ds].depthStencil.depth = d->clearValue.depthStencil.depth;
      in->views[ds] = vkppu_image_view_from_handle(d->imageView);
   }
   if (view_format(s)) {
      att->stencil_load_op = resuming ? VK_ATTACHMENT_LOAD_OP_LOAD : s->loadOp;
      att->stencil_store_op = s->storeOp;
      in->clear[ds].depthStencil.stencil = s->clearValue.depthStencil.stencil;
      in->views[ds] = vkppu_image_view_from_handle(s->imageView);
   }
}

/* The pass and framebuffer of one vkCmdBeginRendering; NULL after an
 * error, reported. */
static struct vkppu_rendering_instance *make_instance(struct vkppu_command_buffer *cmd,
                                                      const VkRenderingInfo *info)
{
   if (info->viewMask >> VKPPU_MAX_MULTIVIEW_VIEW_COUNT) {
      report(cmd,
             "vkCmdBeginRendering: viewMask 0x%x names a view beyond maxMultiviewViewCount (%u)",
             info->viewMask, VKPPU_MAX_MULTIVIEW_VIEW_COUNT);
      return NULL;
   }
   if (!info->viewMask &&
       (info->layerCount == 0 || info->layerCount > VKPPU_MAX_FRAMEBUFFER_LAYERS)) {
      report(cmd, "vkCmdBeginRendering: layerCount %u is outside 1..%u", info->layerCount,
             VKPPU_MAX_FRAMEBUFFER_LAYERS);
      return NULL;
   }
   if (info->colorAttachmentCount && !info->pColorAttachments) {
      report(cmd, "vkCmdBeginRendering: %u color attachments and pColorAttachments NULL",
             info->colorAttachmentCount);
      return NULL;
   }
   const VkRenderingAttachmentInfo *d = info->pDepthAttachment, *s = info->pStencilAttachment;
   if (view_format(d) && view_format(s) && d->imageView != s->imageView) {
      report(cmd, "vkCmdBeginRendering: the depth and stencil attachments are different views; "
                  "they must be one (VUID-VkRenderingInfo-pDepthAttachment-06085)");
      return NULL;
   }
   VkFormat colors[VKPPU_MAX_COLOR_ATTACHMENTS] = {VK_FORMAT_UNDEFINED};
   for (uint32_t i = 0; i < info->colorAttachmentCount && i < VKPPU_MAX_COLOR_ATTACHMENTS; i++)
      colors[i] = view_format(&info->pColorAttachments[i]);
   struct vkppu_rendering_instance *in = instance_new(cmd);
   if (!in)
      return NULL;
   const char *why = vkppu_rendering_pass_init(&in->r, info->colorAttachmentCount, colors,
                                               view_format(d), view_format(s));
   if (why) {
      report(cmd, "vkCmdBeginRendering: %s", why);
      return NULL;
   }
   /* Multiview: draws run per view and load ops clear the views' layers
    * (layerCount is ignored). */
   in->r.pass.multiview = info->viewMask != 0;
   in->r.subpass.view_mask = info->viewMask;
   set_load_ops(in, info);
   /* The pass describes the views' real sample counts (1 or 4). */
   for (uint32_t a = 0; a < in->r.pass.attachment_count; a++)
      if (in->views[a])
         in->r.attachments[a].samples = in->views[a]->image->samples;
   if (!(info->flags & VK_RENDERING_SUSPENDING_BIT) && !add_resolves(cmd, in, info))
      return NULL;
   const VkRect2D *ra = &info->renderArea;
   in->fb = (struct vkppu_framebuffer){
       .width = (uint32_t)ra->offset.x + ra->extent.width,
       .height = (uint32_t)ra->offset.y + ra->extent.height,
       .layers = info->viewMask ? 1u : info->layerCount,
       .attachment_count = in->r.pass.attachment_count,
       .attachments = in->views,
   };
   return in;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginRendering(VkCommandBuffer commandBuffer,
                                                   const VkRenderingInfo *pRenderingInfo)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   struct vkppu_rendering_instance *in = make_instance(cmd, pRenderingInfo);
   if (!in) {
      cmd->gfx.pass = NULL; /* draws record nothing */
      cmd->gfx.framebuffer = NULL;
      return;
   }
   cmd->gfx.targets_inherited = false;
   vkppu_cmd_pass_instance_begin(cmd, &in->r.pass, &in->fb, &pRenderingInfo->renderArea, in->clear,
                                 in->r.pass.attachment_count);
   if (pRenderingInfo->flags & VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT)
      vkppu_cmd_emit_targets(cmd);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndRendering(VkCommandBuffer commandBuffer)
{
   vkppu_cmd_pass_instance_end(vkppu_command_buffer_from_handle(commandBuffer));
}

void vkppu_cmd_inherit_rendering(struct vkppu_command_buffer *cmd,
                                 const VkCommandBufferInheritanceRenderingInfo *info)
{
   struct vkppu_rendering_instance *in = instance_new(cmd);
   if (!in)
      return;
   const char *why =
       vkppu_rendering_pass_init(&in->r, info->colorAttachmentCount, info->pColorAttachmentFormats,
                                 info->depthAttachmentFormat, info->stencilAttachmentFormat);
   if (why) {
      report(cmd, "vkBeginCommandBuffer: VkCommandBufferInheritanceRenderingInfo: %s", why);
      return;
   }
   /* Draws run once per view with the view as LAYER_OFFSET; the primary
    * set the targets at their base layers. */
   in->r.pass.multiview = info->viewMask != 0;
   in->r.subpass.view_mask = info->viewMask;
   cmd->gfx.pass = &in->r.pass;
   cmd->gfx.subpass = 0;
   cmd->gfx.framebuffer = NULL;
   cmd->gfx.targets_inherited = true;
}
