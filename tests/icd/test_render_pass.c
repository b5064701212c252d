/* Render passes and framebuffers as the driver stores them
 * (icd/vkppu_render_pass.h): every attachment, reference, aspect,
 * dependency, view mask, view offset and correlation mask copied from
 * create infos that are freed right after the call, from both
 * vkCreateRenderPass and vkCreateRenderPass2; and the invalid create infos
 * the driver refuses with VK_ERROR_UNKNOWN instead of crashing. Called
 * straight into the driver: no format has an attachment feature yet, so a
 * pass with color, depth or input references is invalid usage through the
 * loader with validation on (tests/api/test_vulkan11.c covers the rest).
 * Depth/stencil resolves (VK_KHR_depth_stencil_resolve) need 4x
 * attachments, which no image can be yet, so they are checked here too. */
#include <stdlib.h>
#include <string.h>

#include "icd_test_device.h"
#include "test_harness.h"
#include "vkppu_image.h"
#include "vkppu_render_pass.h"

struct rig {
   VkInstance instance;
   VkDevice device;
};

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS)
      return false;
   return icd_test_device_create(r->instance, &r->device);
}

static void rig_finish(struct rig *r)
{
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

/* A copy of `bytes` on the heap, scribbled over and freed by scrub(): what
 * the driver kept must not point into it. */
static void *heap_copy(const void *p, size_t bytes)
{
   void *q = malloc(bytes);
   if (q)
      memcpy(q, p, bytes);
   return q;
}

static void scrub(void *p, size_t bytes)
{
   if (p)
      memset(p, 0xcd, bytes);
   free(p);
}

static VkAttachmentDescription attachment(VkFormat format)
{
   return (VkAttachmentDescription){
       .format = format,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
       .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
       .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
       .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
   };
}

/* Attachments: 0 color, 1 resolve target, 2 depth/stencil, 3 color read as
 * input. Subpass 0 draws into 0 (resolving into 1) with depth 2 and reads 3;
 * subpass 1 reads 0 and the depth of 2 and preserves 1. Views 0-1 in both. */
struct full_pass {
   VkAttachmentDescription attachments[4];
   VkAttachmentReference color, resolve, depth, input0, inputs1[2];
   uint32_t preserve;
   VkSubpassDescription subpasses[2];
   VkSubpassDependency dependency;
   uint32_t view_masks[2];
   int32_t view_offset;
   uint32_t correlation;
   VkInputAttachmentAspectReference aspect;
   VkRenderPassInputAttachmentAspectCreateInfo aspects;
   VkRenderPassMultiviewCreateInfo mv;
   VkRenderPassCreateInfo ci;
};

static void full_pass_init(struct full_pass *p)
{
   memset(p, 0, sizeof(*p));
   p->attachments[0] = attachment(VK_FORMAT_R8G8B8A8_UNORM);
   p->attachments[1] = attachment(VK_FORMAT_R8G8B8A8_UNORM);
   p->attachments[2] = attachment(VK_FORMAT_D32_SFLOAT_S8_UINT);
   p->attachments[3] = attachment(VK_FORMAT_R32_SFLOAT);
   p->attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
   p->color = (VkAttachmentReference){0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   p->resolve = (VkAttachmentReference){1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   p->depth = (VkAttachmentReference){2, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   p->input0 = (VkAttachmentReference){3, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   p->inputs1[0] = (VkAttachmentReference){0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   p->inputs1[1] = (VkAttachmentReference){2, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
   p->preserve = 1;
   p->subpasses[0] = (VkSubpassDescription){
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .inputAttachmentCount = 1,
       .pInputAttachments = &p->input0,
       .colorAttachmentCount = 1,
       .pColorAttachments = &p->color,
       .pResolveAttachments = &p->resolve,
       .pDepthStencilAttachment = &p->depth,
   };
   p->subpasses[1] = (VkSubpassDescription){
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .inputAttachmentCount = 2,
       .pInputAttachments = p->inputs1,
       .preserveAttachmentCount = 1,
       .pPreserveAttachments = &p->preserve,
   };
   p->dependency = (VkSubpassDependency){
       0,
       1,
       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
       VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
       VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_VIEW_LOCAL_BIT,
   };
   p->view_masks[0] = p->view_masks[1] = 0x3;
   p->view_offset = 1;
   p->correlation = 0x3;
   p->aspect = (VkInputAttachmentAspectReference){1, 1, VK_IMAGE_ASPECT_DEPTH_BIT};
   p->aspects = (VkRenderPassInputAttachmentAspectCreateInfo){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO,
       .aspectReferenceCount = 1,
       .pAspectReferences = &p->aspect,
   };
   p->mv = (VkRenderPassMultiviewCreateInfo){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .pNext = &p->aspects,
       .subpassCount = 2,
       .pViewMasks = p->view_masks,
       .dependencyCount = 1,
       .pViewOffsets = &p->view_offset,
       .correlationMaskCount = 1,
       .pCorrelationMasks = &p->correlation,
   };
   p->ci = (VkRenderPassCreateInfo){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = &p->mv,
       .attachmentCount = 4,
       .pAttachments = p->attachments,
       .subpassCount = 2,
       .pSubpasses = p->subpasses,
       .dependencyCount = 1,
       .pDependencies = &p->dependency,
   };
}

/* Re-points every pointer of a full_pass copy at the copy itself. */
static void full_pass_relink(struct full_pass *p)
{
   p->subpasses[0].pInputAttachments = &p->input0;
   p->subpasses[0].pColorAttachments = &p->color;
   p->subpasses[0].pResolveAttachments = &p->resolve;
   p->subpasses[0].pDepthStencilAttachment = &p->depth;
   p->subpasses[1].pInputAttachments = p->inputs1;
   p->subpasses[1].pPreserveAttachments = &p->preserve;
   p->aspects.pAspectReferences = &p->aspect;
   p->mv.pNext = &p->aspects;
   p->mv.pViewMasks = p->view_masks;
   p->mv.pViewOffsets = &p->view_offset;
   p->mv.pCorrelationMasks = &p->correlation;
   p->ci.pNext = &p->mv;
   p->ci.pAttachments = p->attachments;
   p->ci.pSubpasses = p->subpasses;
   p->ci.pDependencies = &p->dependency;
}

/* What both create paths must produce from full_pass. */
static void check_full_pass(const struct vkppu_render_pass *rp)
{
   REQUIRE(rp);
   CHECK(rp->multiview);
   REQUIRE(rp->attachment_count == 4 && rp->subpass_count == 2 && rp->dependency_count == 1);
   CHECK(rp->attachments[0].format == VK_FORMAT_R8G8B8A8_UNORM);
   CHECK(rp->attachments[0].samples == VK_SAMPLE_COUNT_4_BIT);
   CHECK(rp->attachments[2].format == VK_FORMAT_D32_SFLOAT_S8_UINT);
   CHECK(rp->attachments[3].load_op == VK_ATTACHMENT_LOAD_OP_CLEAR);
   CHECK(rp->attachments[3].final_layout == VK_IMAGE_LAYOUT_GENERAL);

   const struct vkppu_subpass *s0 = &rp->subpasses[0], *s1 = &rp->subpasses[1];
   CHECK(s0->view_mask == 0x3 && s1->view_mask == 0x3);
   REQUIRE(s0->color_count == 1 && s0->resolves && s0->input_count == 1);
   CHECK(s0->colors[0].attachment == 0 &&
         s0->colors[0].layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
   CHECK(s0->resolves[0].attachment == 1);
   /* A normalized format averages. */
   CHECK(s0->resolves[0].resolve_mode == VK_RESOLVE_MODE_AVERAGE_BIT);
   /* No VkSubpassDescriptionDepthStencilResolve: nothing to resolve. */
   CHECK(s0->depth_stencil_resolve.attachment == VK_ATTACHMENT_UNUSED);
   CHECK(s0->depth_resolve_mode == VK_RESOLVE_MODE_NONE &&
         s0->stencil_resolve_mode == VK_RESOLVE_MODE_NONE);
   CHECK(s0->has_depth_stencil && s0->depth_stencil.attachment == 2);
   /* No aspect given: every aspect of the format. */
   CHECK(s0->inputs[0].attachment == 3 && s0->inputs[0].aspects == VK_IMAGE_ASPECT_COLOR_BIT);
   CHECK(s0->preserve_count == 0);
   REQUIRE(s1->input_count == 2 && s1->preserve_count == 1);
   CHECK(s1->color_count == 0 && !s1->resolves && !s1->has_depth_stencil);
   CHECK(s1->inputs[0].attachment == 0 && s1->inputs[0].aspects == VK_IMAGE_ASPECT_COLOR_BIT);
   /* Given explicitly: depth only, although the format has stencil too. */
   CHECK(s1->inputs[1].attachment == 2 && s1->inputs[1].aspects == VK_IMAGE_ASPECT_DEPTH_BIT);
   CHECK(s1->inputs[1].layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
   CHECK(s1->preserves[0] == 1);

   const struct vkppu_subpass_dependency *d = &rp->dependencies[0];
   CHECK(d->src_subpass == 0 && d->dst_subpass == 1);
   CHECK(d->src_stages == VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
   CHECK(d->dst_access == VK_ACCESS_INPUT_ATTACHMENT_READ_BIT);
   CHECK(d->flags == (VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_VIEW_LOCAL_BIT));
   CHECK(d->view_offset == 1);
   REQUIRE(rp->correlation_mask_count == 1);
   CHECK(rp->correlation_masks[0] == 0x3);
}

TEST_CASE(render_pass_copies_attachments_subpasses_dependencies_and_views)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct full_pass src;
   full_pass_init(&src);
   struct full_pass *heap = heap_copy(&src, sizeof(src));
   REQUIRE(heap);
   full_pass_relink(heap);
   VkRenderPass pass = VK_NULL_HANDLE;
   CHECK(vkppu_CreateRenderPass(r.device, &heap->ci, NULL, &pass) == VK_SUCCESS);
   scrub(heap, sizeof(*heap));
   check_full_pass(vkppu_render_pass_from_handle(pass));
   VkExtent2D g = {0, 0};
   vkppu_GetRenderAreaGranularity(r.device, pass, &g);
   CHECK(g.width == 1 && g.height == 1);
   vkppu_DestroyRenderPass(r.device, pass, NULL);
   rig_finish(&r);
}

static VkAttachmentReference2 ref2(const VkAttachmentReference *r, VkImageAspectFlags aspects)
{
   return (VkAttachmentReference2){
       .sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
       .attachment = r->attachment,
       .layout = r->layout,
       .aspectMask = aspects,
   };
}

TEST_CASE(render_pass2_fills_the_same_object)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct full_pass p;
   full_pass_init(&p);
   VkAttachmentDescription2 att[4];
   for (int i = 0; i < 4; i++) {
      const VkAttachmentDescription *a = &p.attachments[i];
      att[i] = (VkAttachmentDescription2){
          .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
          .format = a->format,
          .samples = a->samples,
          .loadOp = a->loadOp,
          .storeOp = a->storeOp,
          .stencilLoadOp = a->stencilLoadOp,
          .stencilStoreOp = a->stencilStoreOp,
          .initialLayout = a->initialLayout,
          .finalLayout = a->finalLayout,
      };
   }
   VkAttachmentReference2 color = ref2(&p.color, 0), resolve = ref2(&p.resolve, 0),
                          depth = ref2(&p.depth, 0), input0 = ref2(&p.input0, 0),
                          inputs1[2] = {ref2(&p.inputs1[0], 0),
                                        ref2(&p.inputs1[1], VK_IMAGE_ASPECT_DEPTH_BIT)};
   VkSubpassDescription2 subpasses[2] = {
       {
           .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
           .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
           .viewMask = 0x3,
           .inputAttachmentCount = 1,
           .pInputAttachments = &input0,
           .colorAttachmentCount = 1,
           .pColorAttachments = &color,
           .pResolveAttachments = &resolve,
           .pDepthStencilAttachment = &depth,
       },
       {
           .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
           .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
           .viewMask = 0x3,
           .inputAttachmentCount = 2,
           .pInputAttachments = inputs1,
           .preserveAttachmentCount = 1,
           .pPreserveAttachments = &p.preserve,
       },
   };
   const VkSubpassDependency *d = &p.dependency;
   VkSubpassDependency2 dep = {
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2,
       .srcSubpass = d->srcSubpass,
       .dstSubpass = d->dstSubpass,
       .srcStageMask = d->srcStageMask,
       .dstStageMask = d->dstStageMask,
       .srcAccessMask = d->srcAccessMask,
       .dstAccessMask = d->dstAccessMask,
       .dependencyFlags = d->dependencyFlags,
       .viewOffset = 1,
   };
   uint32_t correlation = 0x3;
   VkRenderPassCreateInfo2 ci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .attachmentCount = 4,
       .pAttachments = att,
       .subpassCount = 2,
       .pSubpasses = subpasses,
       .dependencyCount = 1,
       .pDependencies = &dep,
       .correlatedViewMaskCount = 1,
       .pCorrelatedViewMasks = &correlation,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   CHECK(vkppu_CreateRenderPass2(r.device, &ci, NULL, &pass) == VK_SUCCESS);
   memset(subpasses, 0xcd, sizeof(subpasses));
   memset(att, 0xcd, sizeof(att));
   check_full_pass(vkppu_render_pass_from_handle(pass));
   vkppu_DestroyRenderPass(r.device, pass, NULL);

   /* The v2 path shares the checks: a view beyond maxMultiviewViewCount. */
   subpasses[0] = (VkSubpassDescription2){
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .viewMask = 1u << VKPPU_MAX_MULTIVIEW_VIEW_COUNT,
   };
   VkRenderPassCreateInfo2 bad = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .subpassCount = 1,
       .pSubpasses = subpasses,
   };
   pass = VK_NULL_HANDLE;
   CHECK(vkppu_CreateRenderPass2(r.device, &bad, NULL, &pass) == VK_ERROR_UNKNOWN);
   CHECK(pass == VK_NULL_HANDLE);
   rig_finish(&r);
}

/* A one-subpass VkRenderPassCreateInfo2 that resolves a 4x integer colour
 * attachment (3 into 4) and a 4x depth/stencil one (0) into attachment
 * `ds_resolve`: 1 has depth and stencil, 2 depth only. */
struct ds_resolve_pass {
   VkAttachmentDescription2 att[5];
   VkAttachmentReference2 color, resolve, depth, ds_resolve;
   VkSubpassDescriptionDepthStencilResolve dsr;
   VkSubpassDescription2 subpass;
   VkRenderPassCreateInfo2 ci;
};

static void ds_resolve_pass_init(struct ds_resolve_pass *p, uint32_t ds_resolve,
                                 VkResolveModeFlagBits depth_mode,
                                 VkResolveModeFlagBits stencil_mode)
{
   static const VkFormat formats[5] = {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT,
                                       VK_FORMAT_D32_SFLOAT, VK_FORMAT_R8G8B8A8_UINT,
                                       VK_FORMAT_R8G8B8A8_UINT};
   memset(p, 0, sizeof(*p));
   for (int i = 0; i < 5; i++) {
      VkAttachmentDescription a = attachment(formats[i]);
      p->att[i] = (VkAttachmentDescription2){
          .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
          .format = a.format,
          .samples = i == 0 || i == 3 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT,
          .loadOp = a.loadOp,
          .storeOp = a.storeOp,
          .stencilLoadOp = a.stencilLoadOp,
          .stencilStoreOp = a.stencilStoreOp,
          .initialLayout = a.initialLayout,
          .finalLayout = a.finalLayout,
      };
   }
   const VkImageLayout c = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   const VkImageLayout d = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
   p->color = (VkAttachmentReference2){VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 3, c, 0};
   p->resolve = (VkAttachmentReference2){VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 4, c, 0};
   p->depth = (VkAttachmentReference2){VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 0, d, 0};
   p->ds_resolve =
       (VkAttachmentReference2){VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, ds_resolve, d, 0};
   p->dsr = (VkSubpassDescriptionDepthStencilResolve){
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE,
       .depthResolveMode = depth_mode,
       .stencilResolveMode = stencil_mode,
       .pDepthStencilResolveAttachment = &p->ds_resolve,
   };
   p->subpass = (VkSubpassDescription2){
       .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
       .pNext = &p->dsr,
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &p->color,
       .pResolveAttachments = &p->resolve,
       .pDepthStencilAttachment = &p->depth,
   };
   p->ci = (VkRenderPassCreateInfo2){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
       .attachmentCount = 5,
       .pAttachments = p->att,
       .subpassCount = 1,
       .pSubpasses = &p->subpass,
   };
}

static const struct vkppu_subpass *ds_resolve_create(struct rig *r, struct ds_resolve_pass *p,
                                                     VkRenderPass *pass)
{
   *pass = VK_NULL_HANDLE;
   if (vkppu_CreateRenderPass2(r->device, &p->ci, NULL, pass) != VK_SUCCESS)
      return NULL;
   memset(p, 0xcd, sizeof(*p)); /* nothing may point into it */
   return &vkppu_render_pass_from_handle(*pass)->subpasses[0];
}

TEST_CASE(depth_stencil_resolve_is_kept_and_checked)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct ds_resolve_pass p;
   VkRenderPass pass;
   ds_resolve_pass_init(&p, 1, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_MAX_BIT);
   const struct vkppu_subpass *sp = ds_resolve_create(&r, &p, &pass);
   CHECK(sp != NULL);
   if (sp) {
      CHECK(sp->depth_stencil_resolve.attachment == 1);
      CHECK(sp->depth_stencil_resolve.layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
      CHECK(sp->depth_resolve_mode == VK_RESOLVE_MODE_AVERAGE_BIT);
      CHECK(sp->stencil_resolve_mode == VK_RESOLVE_MODE_MAX_BIT);
      /* Integer colour takes sample zero. */
      CHECK(sp->resolves && sp->resolves[0].resolve_mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
      vkppu_DestroyRenderPass(r.device, pass, NULL);
   }
   /* Into a depth-only attachment: no stencil is resolved. */
   ds_resolve_pass_init(&p, 2, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   sp = ds_resolve_create(&r, &p, &pass);
   CHECK(sp != NULL);
   if (sp) {
      CHECK(sp->depth_stencil_resolve.attachment == 2);
      CHECK(sp->depth_resolve_mode == VK_RESOLVE_MODE_MIN_BIT);
      CHECK(sp->stencil_resolve_mode == VK_RESOLVE_MODE_NONE);
      vkppu_DestroyRenderPass(r.device, pass, NULL);
   }
   /* A NULL resolve attachment resolves nothing, whatever the modes. */
   ds_resolve_pass_init(&p, 1, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MIN_BIT);
   p.dsr.pDepthStencilResolveAttachment = NULL;
   sp = ds_resolve_create(&r, &p, &pass);
   CHECK(sp != NULL);
   if (sp) {
      CHECK(sp->depth_stencil_resolve.attachment == VK_ATTACHMENT_UNUSED);
      CHECK(sp->depth_resolve_mode == VK_RESOLVE_MODE_NONE &&
            sp->stencil_resolve_mode == VK_RESOLVE_MODE_NONE);
      vkppu_DestroyRenderPass(r.device, pass, NULL);
   }

   static const struct {
      uint32_t attachment;
      VkResolveModeFlagBits depth, stencil;
      bool no_depth_stencil;
      const char *what;
   } bad[] = {
       {5, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_NONE, false, "attachment 5 of 5"},
       {1, VK_RESOLVE_MODE_NONE, VK_RESOLVE_MODE_NONE, false, "both modes NONE"},
       {1, VK_RESOLVE_MODE_NONE, VK_RESOLVE_MODE_AVERAGE_BIT, false, "stencil AVERAGE"},
       {1, VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT, VK_RESOLVE_MODE_NONE, false,
        "two depth modes"},
       {1, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_NONE, true, "no depth/stencil attachment"},
   };
   for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      ds_resolve_pass_init(&p, bad[i].attachment, bad[i].depth, bad[i].stencil);
      if (bad[i].no_depth_stencil)
         p.subpass.pDepthStencilAttachment = NULL;
      pass = VK_NULL_HANDLE;
      VkResult res = vkppu_CreateRenderPass2(r.device, &p.ci, NULL, &pass);
      CHECK_MSG(res == VK_ERROR_UNKNOWN, "%s -> %d", bad[i].what, res);
      CHECK_MSG(pass == VK_NULL_HANDLE, "%s: a handle was returned", bad[i].what);
      if (pass)
         vkppu_DestroyRenderPass(r.device, pass, NULL);
   }
   rig_finish(&r);
}

/* Applies one mistake to a valid full_pass and expects a refusal. */
static void expect_refused(struct rig *r, void (*mistake)(struct full_pass *), const char *what)
{
   struct full_pass p;
   full_pass_init(&p);
   mistake(&p);
   VkRenderPass pass = VK_NULL_HANDLE;
   VkResult res = vkppu_CreateRenderPass(r->device, &p.ci, NULL, &pass);
   CHECK_MSG(res == VK_ERROR_UNKNOWN, "%s -> %d", what, res);
   CHECK_MSG(pass == VK_NULL_HANDLE, "%s: a handle was returned", what);
   if (pass)
      vkppu_DestroyRenderPass(r->device, pass, NULL);
}

static void color_out_of_range(struct full_pass *p)
{
   p->color.attachment = 4;
}
static void input_out_of_range(struct full_pass *p)
{
   p->inputs1[1].attachment = 77;
}
static void preserve_unused(struct full_pass *p)
{
   p->preserve = VK_ATTACHMENT_UNUSED;
}
static void resolve_of_unused_color(struct full_pass *p)
{
   p->color.attachment = VK_ATTACHMENT_UNUSED;
}
static void no_subpasses(struct full_pass *p)
{
   p->ci.subpassCount = 0;
   p->mv.subpassCount = 0;
}
static void too_many_colors(struct full_pass *p)
{
   p->subpasses[0].colorAttachmentCount = 9;
}
static void null_inputs(struct full_pass *p)
{
   p->subpasses[1].pInputAttachments = NULL;
}
static void null_attachments(struct full_pass *p)
{
   p->ci.pAttachments = NULL;
}
static void dependency_out_of_range(struct full_pass *p)
{
   p->dependency.dstSubpass = 2;
}
static void view_beyond_limit(struct full_pass *p)
{
   p->view_masks[0] = p->view_masks[1] = 0x41;
}
static void view_local_without_multiview(struct full_pass *p)
{
   p->mv.subpassCount = 0;
   p->mv.dependencyCount = 0;
   p->mv.correlationMaskCount = 0;
}
static void aspect_of_missing_input(struct full_pass *p)
{
   p->aspect.inputAttachmentIndex = 2;
}
static void aspect_of_missing_subpass(struct full_pass *p)
{
   p->aspect.subpass = 5;
}
static void undefined_format(struct full_pass *p)
{
   p->attachments[3].format = VK_FORMAT_UNDEFINED;
}
static void two_sample_bits(struct full_pass *p)
{
   p->attachments[1].samples = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
}
static void graphics_only(struct full_pass *p)
{
   p->subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
}
static void offsets_count_mismatch(struct full_pass *p)
{
   p->mv.dependencyCount = 3;
}

TEST_CASE(invalid_render_passes_are_refused_not_crashed_on)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   expect_refused(&r, color_out_of_range, "color reference out of range");
   expect_refused(&r, input_out_of_range, "input reference out of range");
   expect_refused(&r, preserve_unused, "preserving VK_ATTACHMENT_UNUSED");
   expect_refused(&r, resolve_of_unused_color, "resolving an unused color");
   expect_refused(&r, no_subpasses, "no subpass");
   expect_refused(&r, too_many_colors, "9 color attachments");
   expect_refused(&r, null_inputs, "NULL pInputAttachments");
   expect_refused(&r, null_attachments, "NULL pAttachments");
   expect_refused(&r, dependency_out_of_range, "dependency on subpass 2 of 2");
   expect_refused(&r, view_beyond_limit, "view 6");
   expect_refused(&r, view_local_without_multiview, "VIEW_LOCAL without multiview");
   expect_refused(&r, aspect_of_missing_input, "aspect of input 2 of 2");
   expect_refused(&r, aspect_of_missing_subpass, "aspect of subpass 5");
   expect_refused(&r, undefined_format, "VK_FORMAT_UNDEFINED");
   expect_refused(&r, two_sample_bits, "two sample count bits");
   expect_refused(&r, graphics_only, "compute bind point");
   expect_refused(&r, offsets_count_mismatch, "3 view offsets for 1 dependency");
   rig_finish(&r);
}

/* ---------------------------------------------------------------------------
 * Framebuffers
 * ------------------------------------------------------------------------- */
struct view_rig {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view;
};

/* A sampled 2D array image with memory and a view of its first `layers`
 * layers: the driver does not look at usage, only at size and layers. */
static bool view_create(struct rig *r, uint32_t w, uint32_t h, uint32_t layers,
                        struct view_rig *out)
{
   memset(out, 0, sizeof(*out));
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {w, h, 1},
       .mipLevels = 1,
       .arrayLayers = layers,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
   };
   if (vkppu_CreateImage(r->device, &ici, NULL, &out->image) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkppu_GetImageMemoryRequirements(r->device, out->image, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = 0};
   if (vkppu_AllocateMemory(r->device, &mai, NULL, &out->memory) != VK_SUCCESS ||
       vkppu_BindImageMemory(r->device, out->image, out->memory, 0) != VK_SUCCESS)
      return false;
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = out->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
       .format = ici.format,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers},
   };
   return vkppu_CreateImageView(r->device, &vci, NULL, &out->view) == VK_SUCCESS;
}

static void view_destroy(struct rig *r, struct view_rig *v)
{
   vkppu_DestroyImageView(r->device, v->view, NULL);
   vkppu_DestroyImage(r->device, v->image, NULL);
   vkppu_FreeMemory(r->device, v->memory, NULL);
}

/* One subpass drawing into attachment 0, with views `view_mask`. */
static VkRenderPass color_pass(struct rig *r, uint32_t view_mask)
{
   VkAttachmentDescription a = attachment(VK_FORMAT_R8G8B8A8_UNORM);
   VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription sp = {
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1,
       .pColorAttachments = &color,
   };
   VkRenderPassMultiviewCreateInfo mv = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 1,
       .pViewMasks = &view_mask,
   };
   VkRenderPassCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = view_mask ? &mv : NULL,
       .attachmentCount = 1,
       .pAttachments = &a,
       .subpassCount = 1,
       .pSubpasses = &sp,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   if (vkppu_CreateRenderPass(r->device, &ci, NULL, &pass) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   return pass;
}

static VkResult framebuffer(struct rig *r, VkRenderPass pass, const VkImageView *views,
                            uint32_t count, uint32_t w, uint32_t h, uint32_t layers,
                            VkFramebuffer *out)
{
   VkFramebufferCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .renderPass = pass,
       .attachmentCount = count,
       .pAttachments = views,
       .width = w,
       .height = h,
       .layers = layers,
   };
   *out = VK_NULL_HANDLE;
   return vkppu_CreateFramebuffer(r->device, &ci, NULL, out);
}

TEST_CASE(framebuffer_keeps_its_views_and_checks_size_layers_and_views)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct view_rig one, six;
   REQUIRE(view_create(&r, 64, 32, 1, &one));
   REQUIRE(view_create(&r, 64, 32, 6, &six));
   VkRenderPass plain = color_pass(&r, 0), multi = color_pass(&r, 0x3f);
   REQUIRE(plain && multi);
   VkFramebuffer fb;

   CHECK(framebuffer(&r, plain, &six.view, 1, 64, 32, 6, &fb) == VK_SUCCESS);
   const struct vkppu_framebuffer *f = vkppu_framebuffer_from_handle(fb);
   REQUIRE(f);
   CHECK(f->width == 64 && f->height == 32 && f->layers == 6 && f->attachment_count == 1);
   CHECK(f->attachments[0] == vkppu_image_view_from_handle(six.view));
   vkppu_DestroyFramebuffer(r.device, fb, NULL);
   /* Six views need six layers; the framebuffer itself has one. */
   CHECK(framebuffer(&r, multi, &six.view, 1, 64, 32, 1, &fb) == VK_SUCCESS);
   vkppu_DestroyFramebuffer(r.device, fb, NULL);

   CHECK(framebuffer(&r, plain, &one.view, 1, 65, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, plain, &one.view, 1, 64, 32, 2, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, multi, &one.view, 1, 64, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, multi, &six.view, 1, 64, 32, 6, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, plain, &one.view, 0, 64, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, plain, NULL, 1, 64, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   VkImageView null_view = VK_NULL_HANDLE;
   CHECK(framebuffer(&r, plain, &null_view, 1, 64, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, plain, &one.view, 1, 0, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(framebuffer(&r, VK_NULL_HANDLE, &one.view, 1, 64, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(fb == VK_NULL_HANDLE);

   vkppu_DestroyRenderPass(r.device, plain, NULL);
   vkppu_DestroyRenderPass(r.device, multi, NULL);
   view_destroy(&r, &one);
   view_destroy(&r, &six);
   rig_finish(&r);
}

/* An imageless framebuffer for `pass` whose one attachment is described as
 * w x h with `layers` layers (NULL description list when w is 0). */
static VkResult imageless_framebuffer(struct rig *r, VkRenderPass pass, uint32_t w, uint32_t h,
                                      uint32_t layers, VkFramebuffer *out)
{
   const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
   VkFramebufferAttachmentImageInfo info = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
       .width = w,
       .height = h,
       .layerCount = layers,
       .viewFormatCount = 1,
       .pViewFormats = &format,
   };
   VkFramebufferAttachmentsCreateInfo infos = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO,
       .attachmentImageInfoCount = 1,
       .pAttachmentImageInfos = &info,
   };
   VkFramebufferCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .pNext = w ? &infos : NULL,
       .flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT,
       .renderPass = pass,
       .attachmentCount = 1,
       .width = 64,
       .height = 32,
       .layers = 1,
   };
   *out = VK_NULL_HANDLE;
   return vkppu_CreateFramebuffer(r->device, &ci, NULL, out);
}

/* Imageless framebuffers keep no views and check their attachments'
 * descriptions; the views given at vkCmdBeginRenderPass are checked like a
 * framebuffer's (vkppu_framebuffer_check_view). */
TEST_CASE(imageless_framebuffer_checks_descriptions_then_views)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   struct view_rig one, small;
   REQUIRE(view_create(&r, 64, 32, 1, &one));
   REQUIRE(view_create(&r, 32, 32, 1, &small));
   VkRenderPass plain = color_pass(&r, 0);
   REQUIRE(plain);
   VkFramebuffer fb;
   CHECK(imageless_framebuffer(&r, plain, 64, 32, 1, &fb) == VK_SUCCESS);
   const struct vkppu_framebuffer *f = vkppu_framebuffer_from_handle(fb);
   REQUIRE(f);
   CHECK(f->attachment_count == 1 && f->attachments[0] == NULL);
   char why[160];
   const struct vkppu_render_pass *pass = vkppu_render_pass_from_handle(plain);
   CHECK(vkppu_framebuffer_check_view(f, pass, 0, vkppu_image_view_from_handle(one.view), why,
                                      sizeof(why)) == NULL);
   CHECK(vkppu_framebuffer_check_view(f, pass, 0, vkppu_image_view_from_handle(small.view), why,
                                      sizeof(why)) != NULL);
   CHECK(vkppu_framebuffer_check_view(f, pass, 0, NULL, why, sizeof(why)) != NULL);
   vkppu_DestroyFramebuffer(r.device, fb, NULL);

   /* A description smaller than the framebuffer, and none at all. */
   CHECK(imageless_framebuffer(&r, plain, 63, 32, 1, &fb) == VK_ERROR_UNKNOWN);
   CHECK(imageless_framebuffer(&r, plain, 0, 0, 0, &fb) == VK_ERROR_UNKNOWN);
   CHECK(fb == VK_NULL_HANDLE);

   vkppu_DestroyRenderPass(r.device, plain, NULL);
   view_destroy(&r, &one);
   view_destroy(&r, &small);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
