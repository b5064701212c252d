/* Dynamic rendering (VK_KHR_dynamic_rendering, docs/graphics.md "Dynamic
 * rendering"): render pass instances without render pass objects.
 *
 * Every form of it is turned into a one-subpass render pass of the same
 * shape (struct vkppu_rendering_pass), so that pipelines, draws and the
 * begin/end of render pass instances (cmd_render_pass.c) work on it as on
 * any render pass: VkPipelineRenderingCreateInfo for graphics pipelines,
 * VkRenderingInfo for vkCmdBeginRendering (cmd_rendering.c) and
 * VkCommandBufferInheritanceRenderingInfo for secondaries.
 *
 * The attachments are, in order: colour attachment i as attachment i, then
 * the depth/stencil attachment (depth and stencil are one view in Vulkan)
 * at index color_count, then the resolve attachments vkCmdBeginRendering
 * adds. */
#ifndef VKPPU_RENDERING_H
#define VKPPU_RENDERING_H

#include "vkppu_cmd_buffer.h"
#include "vkppu_render_pass.h"

/* Colours, depth/stencil, a resolve of each. */
#define VKPPU_RENDERING_MAX_ATTACHMENTS (2u * (VKPPU_MAX_COLOR_ATTACHMENTS + 1u))

/* Points into itself: built in place, never copied. */
struct vkppu_rendering_pass {
   struct vkppu_render_pass pass;
   struct vkppu_subpass subpass;
   struct vkppu_render_pass_attachment attachments[VKPPU_RENDERING_MAX_ATTACHMENTS];
   struct vkppu_subpass_reference colors[VKPPU_MAX_COLOR_ATTACHMENTS];
   struct vkppu_subpass_reference resolves[VKPPU_MAX_COLOR_ATTACHMENTS];
};

/* Fills r from attachment formats (rendering_pass.c): colour formats
 * VK_FORMAT_UNDEFINED are VK_ATTACHMENT_UNUSED; there is a depth/stencil
 * attachment when either format is not UNDEFINED, and it has only the
 * aspects whose format is given. Load ops are LOAD and store ops STORE, no
 * resolves; the caller changes what it knows better. NULL, or why the
 * formats are refused. */
const char *vkppu_rendering_pass_init(struct vkppu_rendering_pass *r, uint32_t color_count,
                                      const VkFormat *color_formats, VkFormat depth_format,
                                      VkFormat stencil_format);

/* A secondary that continues dynamic rendering (cmd_rendering.c): its
 * draws render into the attachments the primary's vkCmdBeginRendering has
 * set, in the formats given. */
void vkppu_cmd_inherit_rendering(struct vkppu_command_buffer *cmd,
                                 const VkCommandBufferInheritanceRenderingInfo *info);

/* Frees the render passes a command buffer made for dynamic rendering
 * (reset, free). */
void vkppu_cmd_rendering_release(struct vkppu_command_buffer *cmd);

#endif /* VKPPU_RENDERING_H */
