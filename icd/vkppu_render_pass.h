/* VkRenderPass and VkFramebuffer: the core 1.0/1.1 render-pass objects.
 *
 * Creation copies and checks everything the application passed
 * (attachments, subpasses with their references, dependencies, multiview
 * view masks, view offsets and correlation masks). Graphics pipelines read
 * their subpass from here, and render pass instances (cmd_render_pass.c,
 * docs/graphics.md) the attachments and the framebuffer's views; draws in
 * a multiview subpass run once per view of its view mask (cmd_draw.c).
 *
 * Each object is one allocation: the struct, then its arrays. No pointer the
 * application passed is kept.
 */
#ifndef VKPPU_RENDER_PASS_H
#define VKPPU_RENDER_PASS_H

#include "vkppu_device.h"

struct vkppu_image_view;

/* VkAttachmentDescription(2) without sType/pNext. */
struct vkppu_render_pass_attachment {
   VkAttachmentDescriptionFlags flags;
   VkFormat format;
   VkSampleCountFlagBits samples;
   VkAttachmentLoadOp load_op;
   VkAttachmentStoreOp store_op;
   VkAttachmentLoadOp stencil_load_op;
   VkAttachmentStoreOp stencil_store_op;
   VkImageLayout initial_layout;
   VkImageLayout final_layout;
};

/* One attachment reference of a subpass. `attachment` is an index into the
 * pass's attachments or VK_ATTACHMENT_UNUSED. `aspects` is what an input
 * attachment reads: from VkAttachmentReference2::aspectMask, or
 * VkRenderPassInputAttachmentAspectCreateInfo (1.1), else every aspect of
 * the attachment's format (0 for UNUSED). */
struct vkppu_subpass_reference {
   uint32_t attachment;
   VkImageLayout layout;
   VkImageAspectFlags aspects;
   VkResolveModeFlagBits
       resolve_mode; /* resolves only: AVERAGE, or SAMPLE_ZERO for integer formats (render passes);
                        VkRenderingAttachmentInfo's mode (dynamic rendering) */
};

struct vkppu_subpass {
   VkSubpassDescriptionFlags flags;
   VkPipelineBindPoint bind_point;
   /* Multiview: the views this subpass renders; 0 when multiview is off
    * (VkRenderPassMultiviewCreateInfo::pViewMasks, VkSubpassDescription2). */
   uint32_t view_mask;
   uint32_t input_count;
   struct vkppu_subpass_reference *inputs;
   uint32_t color_count;
   struct vkppu_subpass_reference *colors;
   struct vkppu_subpass_reference *resolves; /* color_count entries, or NULL */
   bool has_depth_stencil;
   struct vkppu_subpass_reference depth_stencil;
   uint32_t preserve_count;
   uint32_t *preserves;
   /* VkSubpassDescriptionDepthStencilResolve: attachment VK_ATTACHMENT_UNUSED
    * when the subpass resolves no depth/stencil; modes NONE when that aspect
    * is not resolved. */
   struct vkppu_subpass_reference depth_stencil_resolve;
   VkResolveModeFlagBits depth_resolve_mode, stencil_resolve_mode;
};

/* VkSubpassDependency(2) with its multiview view offset. */
struct vkppu_subpass_dependency {
   uint32_t src_subpass; /* index or VK_SUBPASS_EXTERNAL */
   uint32_t dst_subpass;
   VkPipelineStageFlags src_stages;
   VkPipelineStageFlags dst_stages;
   VkAccessFlags src_access;
   VkAccessFlags dst_access;
   VkDependencyFlags flags;
   int32_t view_offset; /* only with VK_DEPENDENCY_VIEW_LOCAL_BIT, else 0 */
};

struct vkppu_render_pass {
   struct vkppu_object base;
   bool multiview; /* every subpass has a non-zero view mask */
   uint32_t attachment_count;
   struct vkppu_render_pass_attachment *attachments;
   uint32_t subpass_count;
   struct vkppu_subpass *subpasses;
   uint32_t dependency_count;
   struct vkppu_subpass_dependency *dependencies;
   /* Views that may be rendered concurrently (correlation masks). */
   uint32_t correlation_mask_count;
   uint32_t *correlation_masks;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_render_pass, VkRenderPass)

/* An imageless framebuffer (VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) has no
 * views: attachments[] is all NULL and vkCmdBeginRenderPass makes a copy
 * holding the views of VkRenderPassAttachmentBeginInfo (cmd_render_pass.c). */
struct vkppu_framebuffer {
   struct vkppu_object base;
   VkFramebufferCreateFlags flags;
   uint32_t width, height, layers;
   uint32_t attachment_count;
   struct vkppu_image_view **attachments; /* attachment_count entries */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_framebuffer, VkFramebuffer)

/* Whether `view` can be attachment `a` of `pass` in `fb` (one level, big
 * enough, enough layers); NULL if so, else why not, in `why`. */
const char *vkppu_framebuffer_check_view(const struct vkppu_framebuffer *fb,
                                         const struct vkppu_render_pass *pass, uint32_t a,
                                         const struct vkppu_image_view *view, char *why,
                                         size_t why_size);

/* Limits the render-pass objects check and the device reports
 * (VkPhysicalDeviceLimits, physical_device_properties.c). */
#define VKPPU_MAX_COLOR_ATTACHMENTS 8u
#define VKPPU_MAX_FRAMEBUFFER_SIZE 16384u /* width and height */
#define VKPPU_MAX_FRAMEBUFFER_LAYERS 2048u

/* The depth and stencil resolve modes (VkPhysicalDeviceDepthStencilResolve
 * Properties): the hardware's RESOLVE takes a mode per aspect, average, sample
 * zero, min or max (docs/graphics-hw.md); stencil values are integers, which
 * are never averaged. */
#define VKPPU_DEPTH_RESOLVE_MODES                                                                  \
   (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT |      \
    VK_RESOLVE_MODE_MAX_BIT)
#define VKPPU_STENCIL_RESOLVE_MODES                                                                \
   (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT)

/* Whether `mode` is one mode (one bit) of `supported`. */
static inline bool vkppu_resolve_mode_supported(VkResolveModeFlags mode,
                                                VkResolveModeFlags supported)
{
   return mode != 0 && (mode & (mode - 1)) == 0 && (mode & supported) != 0;
}

/* The multiview limits (VkPhysicalDeviceMultiviewProperties). Six views is
 * the spec's minimum for maxMultiviewViewCount (a cube's faces); the
 * instance index bound is the spec's minimum, 2^27 - 1. */
#define VKPPU_MAX_MULTIVIEW_VIEW_COUNT 6u
#define VKPPU_MAX_MULTIVIEW_INSTANCE_INDEX ((1u << 27) - 1u)

#endif
