/* vkCreateRenderPass(2), vkDestroyRenderPass, vkGetRenderAreaGranularity
 * (vkppu_render_pass.h).
 *
 * Both create commands make the object from a VkRenderPassCreateInfo2:
 * vkCreateRenderPass translates its create info into one first, taking view
 * masks, view offsets and correlation masks from
 * VkRenderPassMultiviewCreateInfo and input aspects from
 * VkRenderPassInputAttachmentAspectCreateInfo, as the spec relates the two.
 * The object is checked once it is filled, so both share the rules.
 *
 * Invalid input is undefined behaviour in Vulkan, but a driver must not
 * crash on it: every count, pointer and index the object depends on is
 * checked, and a violation is reported with the rule it breaks and fails
 * the call with VK_ERROR_UNKNOWN, the spec's code for invalid input (as
 * vkCreateShaderModule does). */
#include <stdarg.h>
#include <stdio.h>

#include "vkppu_image.h"
#include "vkppu_render_pass.h"

static VkResult invalid(struct vkppu_device *dev, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static VkResult invalid(struct vkppu_device *dev, const char *cmd, const char *fmt, ...)
{
   char what[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "%s: %s", cmd, what);
   return VK_ERROR_UNKNOWN;
}

/* ---------------------------------------------------------------------------
 * One allocation: the object, then its arrays
 * ------------------------------------------------------------------------- */
struct rp_sizes {
   uint32_t attachments, subpasses, dependencies, correlation_masks;
   uint64_t references; /* inputs + colors + resolves of every subpass */
   uint64_t preserves;
};

/* Carves the arrays out of the block after the struct. */
static struct vkppu_render_pass *
rp_alloc(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
         const struct rp_sizes *n, struct vkppu_subpass_reference **refs, uint32_t **preserves)
{
   /* Subpasses hold pointers, so they come first, where the struct's own
    * alignment places them; everything after is made of 32-bit fields. */
   uint64_t size = sizeof(struct vkppu_render_pass);
   const uint64_t at_subpasses = size;
   size += (uint64_t)n->subpasses * sizeof(struct vkppu_subpass);
   const uint64_t at_attachments = size;
   size += (uint64_t)n->attachments * sizeof(struct vkppu_render_pass_attachment);
   const uint64_t at_dependencies = size;
   size += (uint64_t)n->dependencies * sizeof(struct vkppu_subpass_dependency);
   const uint64_t at_references = size;
   size += n->references * sizeof(struct vkppu_subpass_reference);
   const uint64_t at_masks = size;
   size += (uint64_t)n->correlation_masks * sizeof(uint32_t);
   const uint64_t at_preserves = size;
   size += n->preserves * sizeof(uint32_t);
   /* Counts are 32-bit, so this only fails for absurd ones; they would not
    * fit in host memory either. */
   if (size > SIZE_MAX / 2)
      return NULL;
   char *block =
       vkppu_device_zalloc(dev, pAllocator, (size_t)size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!block)
      return NULL;
   struct vkppu_render_pass *pass = (void *)block;
   vkppu_object_init(&pass->base, VK_OBJECT_TYPE_RENDER_PASS, dev);
   pass->attachment_count = n->attachments;
   pass->attachments = (void *)(block + at_attachments);
   pass->subpass_count = n->subpasses;
   pass->subpasses = (void *)(block + at_subpasses);
   pass->dependency_count = n->dependencies;
   pass->dependencies = (void *)(block + at_dependencies);
   pass->correlation_mask_count = n->correlation_masks;
   pass->correlation_masks = (void *)(block + at_masks);
   *refs = (void *)(block + at_references);
   *preserves = (void *)(block + at_preserves);
   return pass;
}

static void rp_free(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
                    struct vkppu_render_pass *pass)
{
   vkppu_object_finish(&pass->base);
   vkppu_device_free(dev, pAllocator, pass);
}

/* The aspects of a format, for input attachments with no aspect given
 * (spec, "Render Pass Creation": without VkRenderPassInputAttachmentAspect
 * CreateInfo an input attachment may read every aspect of its format). */
static VkImageAspectFlags format_aspects(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_D16_UNORM:
   case VK_FORMAT_X8_D24_UNORM_PACK32:
   case VK_FORMAT_D32_SFLOAT:
      return VK_IMAGE_ASPECT_DEPTH_BIT;
   case VK_FORMAT_S8_UINT:
      return VK_IMAGE_ASPECT_STENCIL_BIT;
   case VK_FORMAT_D16_UNORM_S8_UINT:
   case VK_FORMAT_D24_UNORM_S8_UINT:
   case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
   default:
      return VK_IMAGE_ASPECT_COLOR_BIT;
   }
}

/* ---------------------------------------------------------------------------
 * Checks on the filled object (both create paths)
 * ------------------------------------------------------------------------- */
static bool is_single_sample_count(VkSampleCountFlagBits s)
{
   return s != 0 && (s & (s - 1)) == 0 && s <= VK_SAMPLE_COUNT_64_BIT;
}

static VkResult check_reference(struct vkppu_device *dev, const char *cmd,
                                const struct vkppu_render_pass *pass, uint32_t subpass,
                                const char *kind, uint32_t index,
                                const struct vkppu_subpass_reference *ref)
{
   if (ref->attachment != VK_ATTACHMENT_UNUSED && ref->attachment >= pass->attachment_count)
      return invalid(dev, cmd,
                     "subpass %u %s reference %u names attachment %u, but the render pass has "
                     "%u attachments",
                     subpass, kind, index, ref->attachment, pass->attachment_count);
   return VK_SUCCESS;
}

/* VkSubpassDescriptionDepthStencilResolve of a subpass that resolves into
 * an attachment (VUID-VkSubpassDescriptionDepthStencilResolve-*). */
static VkResult check_depth_stencil_resolve(struct vkppu_device *dev, const char *cmd,
                                            const struct vkppu_render_pass *pass, uint32_t s)
{
   const struct vkppu_subpass *sp = &pass->subpasses[s];
   VkResult r =
       check_reference(dev, cmd, pass, s, "depth/stencil resolve", 0, &sp->depth_stencil_resolve);
   if (r != VK_SUCCESS)
      return r;
   if (!sp->has_depth_stencil || sp->depth_stencil.attachment == VK_ATTACHMENT_UNUSED)
      return invalid(dev, cmd,
                     "subpass %u resolves depth/stencil but has no depth/stencil attachment", s);
   if (sp->depth_resolve_mode == VK_RESOLVE_MODE_NONE &&
       sp->stencil_resolve_mode == VK_RESOLVE_MODE_NONE)
      return invalid(dev, cmd,
                     "subpass %u has a depth/stencil resolve attachment with both resolve modes "
                     "VK_RESOLVE_MODE_NONE",
                     s);
   if (sp->depth_resolve_mode != VK_RESOLVE_MODE_NONE &&
       !vkppu_resolve_mode_supported(sp->depth_resolve_mode, VKPPU_DEPTH_RESOLVE_MODES))
      return invalid(dev, cmd,
                     "subpass %u depth resolve mode 0x%x is not one of the supported 0x%x", s,
                     sp->depth_resolve_mode, VKPPU_DEPTH_RESOLVE_MODES);
   if (sp->stencil_resolve_mode != VK_RESOLVE_MODE_NONE &&
       !vkppu_resolve_mode_supported(sp->stencil_resolve_mode, VKPPU_STENCIL_RESOLVE_MODES))
      return invalid(dev, cmd,
                     "subpass %u stencil resolve mode 0x%x is not one of the supported 0x%x", s,
                     sp->stencil_resolve_mode, VKPPU_STENCIL_RESOLVE_MODES);
   return VK_SUCCESS;
}

static VkResult check_subpass(struct vkppu_device *dev, const char *cmd,
                              const struct vkppu_render_pass *pass, uint32_t s)
{
   const struct vkppu_subpass *sp = &pass->subpasses[s];
   VkResult r = VK_SUCCESS;
   if (sp->bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS)
      return invalid(dev, cmd, "subpass %u has pipeline bind point %d; only GRAPHICS is allowed", s,
                     sp->bind_point);
   for (uint32_t i = 0; i < sp->input_count && r == VK_SUCCESS; i++)
      r = check_reference(dev, cmd, pass, s, "input", i, &sp->inputs[i]);
   for (uint32_t i = 0; i < sp->color_count && r == VK_SUCCESS; i++) {
      r = check_reference(dev, cmd, pass, s, "color", i, &sp->colors[i]);
      if (r == VK_SUCCESS && sp->resolves)
         r = check_reference(dev, cmd, pass, s, "resolve", i, &sp->resolves[i]);
      if (r == VK_SUCCESS && sp->resolves && sp->resolves[i].attachment != VK_ATTACHMENT_UNUSED &&
          sp->colors[i].attachment == VK_ATTACHMENT_UNUSED)
         r = invalid(dev, cmd, "subpass %u resolves color %u, which is VK_ATTACHMENT_UNUSED", s, i);
   }
   if (r == VK_SUCCESS && sp->has_depth_stencil)
      r = check_reference(dev, cmd, pass, s, "depth/stencil", 0, &sp->depth_stencil);
   if (r == VK_SUCCESS && sp->depth_stencil_resolve.attachment != VK_ATTACHMENT_UNUSED)
      r = check_depth_stencil_resolve(dev, cmd, pass, s);
   for (uint32_t i = 0; i < sp->preserve_count && r == VK_SUCCESS; i++) {
      if (sp->preserves[i] >= pass->attachment_count)
         r = invalid(dev, cmd,
                     "subpass %u preserves attachment %u, but the render pass has %u attachments "
                     "(VK_ATTACHMENT_UNUSED may not be preserved)",
                     s, sp->preserves[i], pass->attachment_count);
   }
   return r;
}

static VkResult check_dependency(struct vkppu_device *dev, const char *cmd,
                                 const struct vkppu_render_pass *pass, uint32_t d)
{
   const struct vkppu_subpass_dependency *dep = &pass->dependencies[d];
   const uint32_t ext = VK_SUBPASS_EXTERNAL;
   if ((dep->src_subpass != ext && dep->src_subpass >= pass->subpass_count) ||
       (dep->dst_subpass != ext && dep->dst_subpass >= pass->subpass_count))
      return invalid(dev, cmd, "dependency %u links subpass %d to %d, but there are %u subpasses",
                     d, (int)dep->src_subpass, (int)dep->dst_subpass, pass->subpass_count);
   if (dep->src_subpass == ext && dep->dst_subpass == ext)
      return invalid(dev, cmd, "dependency %u has VK_SUBPASS_EXTERNAL on both sides", d);
   if (dep->src_subpass != ext && dep->dst_subpass != ext && dep->src_subpass > dep->dst_subpass)
      return invalid(dev, cmd,
                     "dependency %u goes backwards, from subpass %u to %u (subpasses execute in "
                     "order)",
                     d, dep->src_subpass, dep->dst_subpass);
   const bool view_local = dep->flags & VK_DEPENDENCY_VIEW_LOCAL_BIT;
   if (view_local && !pass->multiview)
      return invalid(dev, cmd, "dependency %u is VIEW_LOCAL, but multiview is not enabled", d);
   if (view_local && (dep->src_subpass == ext || dep->dst_subpass == ext))
      return invalid(dev, cmd, "dependency %u is VIEW_LOCAL with a VK_SUBPASS_EXTERNAL side", d);
   if (!view_local && dep->view_offset != 0)
      return invalid(dev, cmd, "dependency %u has view offset %d but is not VIEW_LOCAL", d,
                     dep->view_offset);
   if (view_local && dep->src_subpass == dep->dst_subpass && dep->view_offset != 0)
      return invalid(dev, cmd,
                     "dependency %u is a VIEW_LOCAL self-dependency of subpass %u with view "
                     "offset %d; it must be 0",
                     d, dep->src_subpass, dep->view_offset);
   return VK_SUCCESS;
}

static VkResult check_multiview(struct vkppu_device *dev, const char *cmd,
                                const struct vkppu_render_pass *pass)
{
   uint32_t with_views = 0;
   for (uint32_t s = 0; s < pass->subpass_count; s++) {
      uint32_t mask = pass->subpasses[s].view_mask;
      with_views += mask != 0;
      if (mask >> VKPPU_MAX_MULTIVIEW_VIEW_COUNT)
         return invalid(dev, cmd,
                        "subpass %u view mask 0x%x names a view beyond maxMultiviewViewCount (%u)",
                        s, mask, VKPPU_MAX_MULTIVIEW_VIEW_COUNT);
   }
   if (with_views != 0 && with_views != pass->subpass_count)
      return invalid(dev, cmd,
                     "%u of %u subpasses have a view mask: multiview needs one on every subpass "
                     "or on none",
                     with_views, pass->subpass_count);
   if (!pass->multiview && pass->correlation_mask_count != 0)
      return invalid(dev, cmd, "%u correlation masks given, but multiview is not enabled",
                     pass->correlation_mask_count);
   uint32_t seen = 0;
   for (uint32_t i = 0; i < pass->correlation_mask_count; i++) {
      if (pass->correlation_masks[i] & seen)
         return invalid(dev, cmd,
                        "correlation mask %u (0x%x) repeats a view of an earlier mask (0x%x): "
                        "each view may be in one mask only",
                        i, pass->correlation_masks[i], seen);
      seen |= pass->correlation_masks[i];
   }
   return VK_SUCCESS;
}

static VkResult check_pass(struct vkppu_device *dev, const char *cmd,
                           const struct vkppu_render_pass *pass)
{
   for (uint32_t a = 0; a < pass->attachment_count; a++) {
      const struct vkppu_render_pass_attachment *at = &pass->attachments[a];
      if (at->format == VK_FORMAT_UNDEFINED)
         return invalid(dev, cmd, "attachment %u has format VK_FORMAT_UNDEFINED", a);
      if (!is_single_sample_count(at->samples))
         return invalid(dev, cmd, "attachment %u has sample count 0x%x, not one sample count bit",
                        a, at->samples);
      if (at->final_layout == VK_IMAGE_LAYOUT_UNDEFINED ||
          at->final_layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
         return invalid(dev, cmd, "attachment %u has final layout %d (UNDEFINED/PREINITIALIZED)", a,
                        at->final_layout);
   }
   VkResult r = check_multiview(dev, cmd, pass);
   for (uint32_t s = 0; s < pass->subpass_count && r == VK_SUCCESS; s++)
      r = check_subpass(dev, cmd, pass, s);
   for (uint32_t d = 0; d < pass->dependency_count && r == VK_SUCCESS; d++)
      r = check_dependency(dev, cmd, pass, d);
   return r;
}

/* Colour resolves average, except integer formats, which take sample zero
 * (spec, "Render Pass Operations"); integer colour formats are those that
 * cannot blend (format_table.c). Depth/stencil modes of aspects the resolve
 * attachment does not have are NONE: nothing of them is resolved. */
static void resolve_modes(struct vkppu_render_pass *pass)
{
   for (uint32_t s = 0; s < pass->subpass_count; s++) {
      struct vkppu_subpass *sp = &pass->subpasses[s];
      for (uint32_t i = 0; sp->resolves && i < sp->color_count; i++) {
         if (sp->resolves[i].attachment == VK_ATTACHMENT_UNUSED)
            continue;
         VkFormat f = pass->attachments[sp->colors[i].attachment].format;
         const struct vkppu_format_info *info = vkppu_format_info(f);
         bool integer = (info->optimal & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) &&
                        !(info->optimal & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT);
         sp->resolves[i].resolve_mode =
             integer ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT;
      }
      uint32_t a = sp->depth_stencil_resolve.attachment;
      VkImageAspectFlags has =
          a == VK_ATTACHMENT_UNUSED ? 0 : format_aspects(pass->attachments[a].format);
      if (!(has & VK_IMAGE_ASPECT_DEPTH_BIT))
         sp->depth_resolve_mode = VK_RESOLVE_MODE_NONE;
      if (!(has & VK_IMAGE_ASPECT_STENCIL_BIT))
         sp->stencil_resolve_mode = VK_RESOLVE_MODE_NONE;
   }
}

/* Input aspects not given explicitly: every aspect of the attachment. */
static void default_input_aspects(struct vkppu_render_pass *pass)
{
   for (uint32_t s = 0; s < pass->subpass_count; s++) {
      struct vkppu_subpass *sp = &pass->subpasses[s];
      for (uint32_t i = 0; i < sp->input_count; i++) {
         struct vkppu_subpass_reference *ref = &sp->inputs[i];
         if (ref->aspects == 0 && ref->attachment < pass->attachment_count)
            ref->aspects = format_aspects(pass->attachments[ref->attachment].format);
      }
   }
}

/* ---------------------------------------------------------------------------
 * Counts and pointers, checked before anything is read through them
 * ------------------------------------------------------------------------- */
static VkResult check_subpass_arrays(struct vkppu_device *dev, const char *cmd, uint32_t s,
                                     uint32_t inputs, const void *p_inputs, uint32_t colors,
                                     const void *p_colors, uint32_t preserves,
                                     const void *p_preserves)
{
   if (inputs && !p_inputs)
      return invalid(dev, cmd, "subpass %u has %u input attachments and pInputAttachments NULL", s,
                     inputs);
   if (colors > VKPPU_MAX_COLOR_ATTACHMENTS)
      return invalid(dev, cmd, "subpass %u has %u color attachments; maxColorAttachments is %u", s,
                     colors, VKPPU_MAX_COLOR_ATTACHMENTS);
   if (colors && !p_colors)
      return invalid(dev, cmd, "subpass %u has %u color attachments and pColorAttachments NULL", s,
                     colors);
   if (preserves && !p_preserves)
      return invalid(dev, cmd,
                     "subpass %u has %u preserve attachments and pPreserveAttachments NULL", s,
                     preserves);
   return VK_SUCCESS;
}

static VkResult check_top_arrays(struct vkppu_device *dev, const char *cmd, uint32_t attachments,
                                 const void *p_attachments, uint32_t subpasses,
                                 const void *p_subpasses, uint32_t dependencies,
                                 const void *p_dependencies)
{
   if (attachments && !p_attachments)
      return invalid(dev, cmd, "attachmentCount %u with pAttachments NULL", attachments);
   if (subpasses == 0 || !p_subpasses)
      return invalid(dev, cmd, "a render pass needs at least one subpass (subpassCount %u%s)",
                     subpasses, p_subpasses ? "" : ", pSubpasses NULL");
   if (dependencies && !p_dependencies)
      return invalid(dev, cmd, "dependencyCount %u with pDependencies NULL", dependencies);
   return VK_SUCCESS;
}

static struct vkppu_subpass_reference ref_from_2(const VkAttachmentReference2 *r)
{
   return (struct vkppu_subpass_reference){
       .attachment = r->attachment, .layout = r->layout, .aspects = r->aspectMask};
}

/* ---------------------------------------------------------------------------
 * The object from a VkRenderPassCreateInfo2 (both create commands)
 * ------------------------------------------------------------------------- */
/* What a render pass's colour resolve does to an attachment of this
 * format: the average, or for integer formats (which have none) sample
 * zero, as VK_KHR_depth_stencil_resolve defines colour resolves. */
static VkResolveModeFlagBits color_resolve_mode(VkFormat format)
{
   return vkppu_format_is_integer_color(format) ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT
                                                : VK_RESOLVE_MODE_AVERAGE_BIT;
}

static void fill_subpass(struct vkppu_subpass *sp, const VkSubpassDescription2 *in,
                         const struct vkppu_render_pass *pass,
                         struct vkppu_subpass_reference **refs, uint32_t **preserves)
{
   sp->flags = in->flags;
   sp->bind_point = in->pipelineBindPoint;
   sp->view_mask = in->viewMask;
   sp->input_count = in->inputAttachmentCount;
   sp->inputs = *refs;
   for (uint32_t i = 0; i < sp->input_count; i++)
      sp->inputs[i] = ref_from_2(&in->pInputAttachments[i]);
   *refs += sp->input_count;
   sp->color_count = in->colorAttachmentCount;
   sp->colors = *refs;
   for (uint32_t i = 0; i < sp->color_count; i++)
      sp->colors[i] = ref_from_2(&in->pColorAttachments[i]);
   *refs += sp->color_count;
   if (in->pResolveAttachments && sp->color_count) {
      sp->resolves = *refs;
      for (uint32_t i = 0; i < sp->color_count; i++) {
         sp->resolves[i] = ref_from_2(&in->pResolveAttachments[i]);
         uint32_t a = sp->resolves[i].attachment;
         if (a < pass->attachment_count)
            sp->resolves[i].resolve_mode = color_resolve_mode(pass->attachments[a].format);
      }
      *refs += sp->color_count;
   }
   if (in->pDepthStencilAttachment) {
      sp->has_depth_stencil = true;
      sp->depth_stencil = ref_from_2(in->pDepthStencilAttachment);
   }
   /* Kept as given: check_subpass checks the modes, resolve_modes then
    * clears those of aspects the attachment does not have. */
   const VkSubpassDescriptionDepthStencilResolve *dsr =
       vkppu_find_in_chain(in->pNext, VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE);
   sp->depth_stencil_resolve.attachment = VK_ATTACHMENT_UNUSED;
   if (dsr && dsr->pDepthStencilResolveAttachment) {
      sp->depth_stencil_resolve = ref_from_2(dsr->pDepthStencilResolveAttachment);
      sp->depth_resolve_mode = dsr->depthResolveMode;
      sp->stencil_resolve_mode = dsr->stencilResolveMode;
   }
   sp->preserve_count = in->preserveAttachmentCount;
   sp->preserves = *preserves;
   for (uint32_t i = 0; i < sp->preserve_count; i++)
      sp->preserves[i] = in->pPreserveAttachments[i];
   *preserves += sp->preserve_count;
}

static VkResult create_render_pass(struct vkppu_device *dev, const char *cmd,
                                   const VkRenderPassCreateInfo2 *ci,
                                   const VkAllocationCallbacks *pAllocator,
                                   struct vkppu_render_pass **out)
{
   VkResult r = check_top_arrays(dev, cmd, ci->attachmentCount, ci->pAttachments, ci->subpassCount,
                                 ci->pSubpasses, ci->dependencyCount, ci->pDependencies);
   if (r != VK_SUCCESS)
      return r;
   if (ci->correlatedViewMaskCount && !ci->pCorrelatedViewMasks)
      return invalid(dev, cmd, "%u correlation masks and a NULL array of them",
                     ci->correlatedViewMaskCount);
   struct rp_sizes n = {
       .attachments = ci->attachmentCount,
       .subpasses = ci->subpassCount,
       .dependencies = ci->dependencyCount,
       .correlation_masks = ci->correlatedViewMaskCount,
   };
   for (uint32_t s = 0; s < ci->subpassCount; s++) {
      const VkSubpassDescription2 *sp = &ci->pSubpasses[s];
      r = check_subpass_arrays(dev, cmd, s, sp->inputAttachmentCount, sp->pInputAttachments,
                               sp->colorAttachmentCount, sp->pColorAttachments,
                               sp->preserveAttachmentCount, sp->pPreserveAttachments);
      if (r != VK_SUCCESS)
         return r;
      n.references += (uint64_t)sp->inputAttachmentCount + sp->colorAttachmentCount +
                      (sp->pResolveAttachments ? sp->colorAttachmentCount : 0);
      n.preserves += sp->preserveAttachmentCount;
   }
   struct vkppu_subpass_reference *refs;
   uint32_t *preserves;
   struct vkppu_render_pass *pass = rp_alloc(dev, pAllocator, &n, &refs, &preserves);
   if (!pass)
      return VK_ERROR_OUT_OF_HOST_MEMORY;

   for (uint32_t a = 0; a < n.attachments; a++) {
      const VkAttachmentDescription2 *in = &ci->pAttachments[a];
      pass->attachments[a] = (struct vkppu_render_pass_attachment){
          in->flags,         in->format,         in->samples,       in->loadOp,      in->storeOp,
          in->stencilLoadOp, in->stencilStoreOp, in->initialLayout, in->finalLayout,
      };
   }
   for (uint32_t s = 0; s < n.subpasses; s++)
      fill_subpass(&pass->subpasses[s], &ci->pSubpasses[s], pass, &refs, &preserves);
   pass->multiview = pass->subpasses[0].view_mask != 0;
   for (uint32_t d = 0; d < n.dependencies; d++) {
      const VkSubpassDependency2 *in = &ci->pDependencies[d];
      pass->dependencies[d] = (struct vkppu_subpass_dependency){
          .src_subpass = in->srcSubpass,
          .dst_subpass = in->dstSubpass,
          .src_stages = in->srcStageMask,
          .dst_stages = in->dstStageMask,
          .src_access = in->srcAccessMask,
          .dst_access = in->dstAccessMask,
          .flags = in->dependencyFlags,
          .view_offset = in->viewOffset,
      };
   }
   for (uint32_t i = 0; i < n.correlation_masks; i++)
      pass->correlation_masks[i] = ci->pCorrelatedViewMasks[i];

   r = check_pass(dev, cmd, pass);
   if (r != VK_SUCCESS) {
      rp_free(dev, pAllocator, pass);
      return r;
   }
   default_input_aspects(pass);
   resolve_modes(pass);
   *out = pass;
   return VK_SUCCESS;
}

/* ---------------------------------------------------------------------------
 * VkRenderPassCreateInfo and its 1.1 pNext structs, as a VkRenderPassCreate-
 * Info2 (the way the 1.2 spec defines the two to correspond)
 * ------------------------------------------------------------------------- */
static VkResult check_multiview_info_1(struct vkppu_device *dev, const char *cmd,
                                       const VkRenderPassCreateInfo *ci,
                                       const VkRenderPassMultiviewCreateInfo *mv)
{
   if (mv->subpassCount && mv->subpassCount != ci->subpassCount)
      return invalid(dev, cmd, "VkRenderPassMultiviewCreateInfo has %u view masks for %u subpasses",
                     mv->subpassCount, ci->subpassCount);
   if (mv->subpassCount && !mv->pViewMasks)
      return invalid(dev, cmd, "VkRenderPassMultiviewCreateInfo::pViewMasks is NULL");
   if (mv->dependencyCount && mv->dependencyCount != ci->dependencyCount)
      return invalid(dev, cmd,
                     "VkRenderPassMultiviewCreateInfo has %u view offsets for %u dependencies",
                     mv->dependencyCount, ci->dependencyCount);
   if (mv->dependencyCount && !mv->pViewOffsets)
      return invalid(dev, cmd, "VkRenderPassMultiviewCreateInfo::pViewOffsets is NULL");
   return VK_SUCCESS;
}

static VkResult check_input_aspects_1(struct vkppu_device *dev, const char *cmd,
                                      const VkRenderPassCreateInfo *ci,
                                      const VkRenderPassInputAttachmentAspectCreateInfo *info)
{
   if (info->aspectReferenceCount && !info->pAspectReferences)
      return invalid(dev, cmd,
                     "VkRenderPassInputAttachmentAspectCreateInfo::pAspectReferences is NULL");
   for (uint32_t i = 0; i < info->aspectReferenceCount; i++) {
      const VkInputAttachmentAspectReference *a = &info->pAspectReferences[i];
      if (a->subpass >= ci->subpassCount ||
          a->inputAttachmentIndex >= ci->pSubpasses[a->subpass].inputAttachmentCount)
         return invalid(dev, cmd,
                        "input aspect reference %u names input %u of subpass %u, which does not "
                        "exist",
                        i, a->inputAttachmentIndex, a->subpass);
      if (a->aspectMask == 0 || (a->aspectMask & VK_IMAGE_ASPECT_METADATA_BIT))
         return invalid(dev, cmd, "input aspect reference %u has aspect mask 0x%x", i,
                        a->aspectMask);
   }
   return VK_SUCCESS;
}

/* The aspects VkRenderPassInputAttachmentAspectCreateInfo gives input
 * `input` of subpass `s`, or 0 (then default_input_aspects decides). */
static VkImageAspectFlags input_aspects_1(const VkRenderPassInputAttachmentAspectCreateInfo *info,
                                          uint32_t s, uint32_t input)
{
   for (uint32_t i = 0; info && i < info->aspectReferenceCount; i++) {
      const VkInputAttachmentAspectReference *a = &info->pAspectReferences[i];
      if (a->subpass == s && a->inputAttachmentIndex == input)
         return a->aspectMask;
   }
   return 0;
}

static VkAttachmentReference2 ref_to_2(const VkAttachmentReference *r, VkImageAspectFlags aspects)
{
   return (VkAttachmentReference2){
       .sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
       .attachment = r->attachment,
       .layout = r->layout,
       .aspectMask = aspects,
   };
}

/* Temporary VkRenderPassCreateInfo2 arrays for one vkCreateRenderPass. */
struct rp_v2 {
   VkAttachmentDescription2 *attachments;
   VkSubpassDescription2 *subpasses;
   VkSubpassDependency2 *dependencies;
   VkAttachmentReference2 *refs; /* every reference of every subpass */
};

static void *v2_alloc(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
                      const VkRenderPassCreateInfo *ci, struct rp_v2 *v2)
{
   uint64_t refs = 0;
   for (uint32_t s = 0; s < ci->subpassCount; s++) {
      const VkSubpassDescription *sp = &ci->pSubpasses[s];
      refs += (uint64_t)sp->inputAttachmentCount + sp->colorAttachmentCount +
              (sp->pResolveAttachments ? sp->colorAttachmentCount : 0) +
              (sp->pDepthStencilAttachment ? 1 : 0);
   }
   const uint64_t at_subpasses = (uint64_t)ci->attachmentCount * sizeof(*v2->attachments);
   const uint64_t at_dependencies =
       at_subpasses + (uint64_t)ci->subpassCount * sizeof(*v2->subpasses);
   const uint64_t at_refs =
       at_dependencies + (uint64_t)ci->dependencyCount * sizeof(*v2->dependencies);
   const uint64_t size = at_refs + refs * sizeof(*v2->refs);
   if (size > SIZE_MAX / 2)
      return NULL;
   char *block =
       vkppu_device_zalloc(dev, pAllocator, (size_t)size + 1, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!block)
      return NULL;
   v2->attachments = (void *)block;
   v2->subpasses = (void *)(block + at_subpasses);
   v2->dependencies = (void *)(block + at_dependencies);
   v2->refs = (void *)(block + at_refs);
   return block;
}

/* Copies the subpass references into v2->refs (advancing it). */
static void subpass_to_2(const VkSubpassDescription *in, uint32_t s, uint32_t view_mask,
                         const VkRenderPassInputAttachmentAspectCreateInfo *aspects,
                         VkSubpassDescription2 *out, VkAttachmentReference2 **refs)
{
   *out = (VkSubpassDescription2){
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
       .flags = in->flags,
       .pipelineBindPoint = in->pipelineBindPoint,
       .viewMask = view_mask,
       .inputAttachmentCount = in->inputAttachmentCount,
       .colorAttachmentCount = in->colorAttachmentCount,
       .preserveAttachmentCount = in->preserveAttachmentCount,
       .pPreserveAttachments = in->pPreserveAttachments,
   };
   VkAttachmentReference2 *r = *refs;
   out->pInputAttachments = r;
   for (uint32_t i = 0; i < in->inputAttachmentCount; i++)
      *r++ = ref_to_2(&in->pInputAttachments[i], input_aspects_1(aspects, s, i));
   out->pColorAttachments = r;
   for (uint32_t i = 0; i < in->colorAttachmentCount; i++)
      *r++ = ref_to_2(&in->pColorAttachments[i], 0);
   if (in->pResolveAttachments) {
      out->pResolveAttachments = r;
      for (uint32_t i = 0; i < in->colorAttachmentCount; i++)
         *r++ = ref_to_2(&in->pResolveAttachments[i], 0);
   }
   if (in->pDepthStencilAttachment) {
      out->pDepthStencilAttachment = r;
      *r++ = ref_to_2(in->pDepthStencilAttachment, 0);
   }
   *refs = r;
}

static VkResult create_render_pass_1(struct vkppu_device *dev, const VkRenderPassCreateInfo *ci,
                                     const VkAllocationCallbacks *pAllocator,
                                     struct vkppu_render_pass **out)
{
   static const char cmd[] = "vkCreateRenderPass";
   /* What the conversion reads through is checked first; the rest is
    * checked on the object, like vkCreateRenderPass2's. */
   VkResult r = check_top_arrays(dev, cmd, ci->attachmentCount, ci->pAttachments, ci->subpassCount,
                                 ci->pSubpasses, ci->dependencyCount, ci->pDependencies);
   for (uint32_t s = 0; r == VK_SUCCESS && s < ci->subpassCount; s++) {
      const VkSubpassDescription *sp = &ci->pSubpasses[s];
      r = check_subpass_arrays(dev, cmd, s, sp->inputAttachmentCount, sp->pInputAttachments,
                               sp->colorAttachmentCount, sp->pColorAttachments,
                               sp->preserveAttachmentCount, sp->pPreserveAttachments);
   }
   const VkRenderPassMultiviewCreateInfo *mv =
       vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
   if (r == VK_SUCCESS && mv)
      r = check_multiview_info_1(dev, cmd, ci, mv);
   const VkRenderPassInputAttachmentAspectCreateInfo *aspects = vkppu_find_in_chain(
       ci->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO);
   if (r == VK_SUCCESS && aspects)
      r = check_input_aspects_1(dev, cmd, ci, aspects);
   if (r != VK_SUCCESS)
      return r;

   struct rp_v2 v2;
   void *block = v2_alloc(dev, pAllocator, ci, &v2);
   if (!block)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t a = 0; a < ci->attachmentCount; a++) {
      const VkAttachmentDescription *in = &ci->pAttachments[a];
      v2.attachments[a] = (VkAttachmentDescription2){
          .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
          .flags = in->flags,
          .format = in->format,
          .samples = in->samples,
          .loadOp = in->loadOp,
          .storeOp = in->storeOp,
          .stencilLoadOp = in->stencilLoadOp,
          .stencilStoreOp = in->stencilStoreOp,
          .initialLayout = in->initialLayout,
          .finalLayout = in->finalLayout,
      };
   }
   VkAttachmentReference2 *refs = v2.refs;
   for (uint32_t s = 0; s < ci->subpassCount; s++) {
      uint32_t view_mask = mv && mv->subpassCount ? mv->pViewMasks[s] : 0;
      subpass_to_2(&ci->pSubpasses[s], s, view_mask, aspects, &v2.subpasses[s], &refs);
   }
   for (uint32_t d = 0; d < ci->dependencyCount; d++) {
      const VkSubpassDependency *in = &ci->pDependencies[d];
      v2.dependencies[d] = (VkSubpassDependency2){
          .sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2,
          .srcSubpass = in->srcSubpass,
          .dstSubpass = in->dstSubpass,
          .srcStageMask = in->srcStageMask,
          .dstStageMask = in->dstStageMask,
          .srcAccessMask = in->srcAccessMask,
          .dstAccessMask = in->dstAccessMask,
          .dependencyFlags = in->dependencyFlags,
          .viewOffset = mv && mv->dependencyCount ? mv->pViewOffsets[d] : 0,
      };
   }
   const VkRenderPassCreateInfo2 ci2 = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .flags = ci->flags,
       .attachmentCount = ci->attachmentCount,
       .pAttachments = v2.attachments,
       .subpassCount = ci->subpassCount,
       .pSubpasses = v2.subpasses,
       .dependencyCount = ci->dependencyCount,
       .pDependencies = v2.dependencies,
       .correlatedViewMaskCount = mv ? mv->correlationMaskCount : 0,
       .pCorrelatedViewMasks = mv ? mv->pCorrelationMasks : NULL,
   };
   r = create_render_pass(dev, cmd, &ci2, pAllocator, out);
   vkppu_device_free(dev, pAllocator, block);
   return r;
}

/* ---------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------- */
VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateRenderPass(VkDevice device,
                                                      const VkRenderPassCreateInfo *pCreateInfo,
                                                      const VkAllocationCallbacks *pAllocator,
                                                      VkRenderPass *pRenderPass)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_render_pass *pass = NULL;
   VkResult r = create_render_pass_1(dev, pCreateInfo, pAllocator, &pass);
   if (r == VK_SUCCESS)
      *pRenderPass = vkppu_render_pass_to_handle(pass);
   return r;
}

/* Core 1.2: the loader hands it out once the device reports 1.2 or lists
 * VK_KHR_create_renderpass2 (docs/status.md, "Render passes"). */
VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateRenderPass2(VkDevice device,
                                                       const VkRenderPassCreateInfo2 *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkRenderPass *pRenderPass)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_render_pass *pass = NULL;
   VkResult r = create_render_pass(dev, "vkCreateRenderPass2", pCreateInfo, pAllocator, &pass);
   if (r == VK_SUCCESS)
      *pRenderPass = vkppu_render_pass_to_handle(pass);
   return r;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyRenderPass(VkDevice device, VkRenderPass renderPass,
                                                   const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_render_pass, pass, renderPass);
   if (pass)
      rp_free(dev, pAllocator, pass);
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetRenderAreaGranularity(VkDevice device, VkRenderPass renderPass,
                                                          VkExtent2D *pGranularity)
{
   (void)device;
   (void)renderPass;
   /* No tiler: any render area is as fast as any other. */
   *pGranularity = (VkExtent2D){1, 1};
}
