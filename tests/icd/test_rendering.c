/* The render pass vkCmdBeginRendering makes (icd/cmd_rendering.c,
 * vkppu_rendering.h), read straight from the command buffer: attachments
 * and views in their order, NULL views unused, load ops (LOAD when
 * resuming), colour and depth/stencil resolves with their modes (none when
 * suspending), the aspects of a combined format given as depth only, the
 * errors that leave nothing to draw into, and the pass a secondary inherits.
 * Resolves cannot run through the API yet (no image is 4x), so this is
 * where they are checked. */
#include <string.h>

#include "icd_test_device.h"
#include "test_harness.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_image.h"
#include "vkppu_render_pass.h"

enum { COLOR, COLOR_RESOLVE, DS, DS_RESOLVE, VIEW_COUNT };

struct rig {
   VkInstance instance;
   VkDevice device;
   VkCommandPool pool;
   VkImage images[VIEW_COUNT];
   VkDeviceMemory memory[VIEW_COUNT];
   VkImageView views[VIEW_COUNT];
};

static bool view_create(struct rig *r, unsigned i, VkFormat format)
{
   const bool ds = format != VK_FORMAT_R8G8B8A8_UNORM;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {32, 32, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage =
           ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
   };
   if (vkppu_CreateImage(r->device, &ici, NULL, &r->images[i]) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkppu_GetImageMemoryRequirements(r->device, r->images[i], &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = 0};
   if (vkppu_AllocateMemory(r->device, &mai, NULL, &r->memory[i]) != VK_SUCCESS ||
       vkppu_BindImageMemory(r->device, r->images[i], r->memory[i], 0) != VK_SUCCESS)
      return false;
   VkImageViewCreateInfo vci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = r->images[i],
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = format,
       .subresourceRange = {ds ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                               : VK_IMAGE_ASPECT_COLOR_BIT,
                            0, 1, 0, 1},
   };
   return vkppu_CreateImageView(r->device, &vci, NULL, &r->views[i]) == VK_SUCCESS;
}

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS ||
       !icd_test_device_create(r->instance, &r->device))
      return false;
   VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT};
   return vkppu_CreateCommandPool(r->device, &pci, NULL, &r->pool) == VK_SUCCESS &&
          view_create(r, COLOR, VK_FORMAT_R8G8B8A8_UNORM) &&
          view_create(r, COLOR_RESOLVE, VK_FORMAT_R8G8B8A8_UNORM) &&
          view_create(r, DS, VK_FORMAT_D32_SFLOAT_S8_UINT) &&
          view_create(r, DS_RESOLVE, VK_FORMAT_D32_SFLOAT_S8_UINT);
}

static void rig_finish(struct rig *r)
{
   for (unsigned i = 0; i < VIEW_COUNT; i++) {
      vkppu_DestroyImageView(r->device, r->views[i], NULL);
      vkppu_DestroyImage(r->device, r->images[i], NULL);
      vkppu_FreeMemory(r->device, r->memory[i], NULL);
   }
   if (r->pool)
      vkppu_DestroyCommandPool(r->device, r->pool, NULL);
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

static VkCommandBuffer begin_cmd(struct rig *r, VkCommandBufferLevel level,
                                 const VkCommandBufferBeginInfo *bi)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = r->pool,
                                     .level = level,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   CHECK(vkppu_AllocateCommandBuffers(r->device, &ai, &cmd) == VK_SUCCESS);
   CHECK(vkppu_BeginCommandBuffer(cmd, bi) == VK_SUCCESS);
   return cmd;
}

/* Colour 0 resolving (AVERAGE) into COLOR_RESOLVE, colour 1 without a
 * view, depth (MIN) and stencil (MAX) of DS resolving into DS_RESOLVE. */
struct info {
   VkRenderingAttachmentInfo colors[2], depth, stencil;
   VkRenderingInfo ri;
};

static void info_init(struct rig *r, struct info *in, VkRenderingFlags flags)
{
   memset(in, 0, sizeof(*in));
   const VkRenderingAttachmentInfo base = {
       .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
       .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
       .resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL,
   };
   in->colors[0] = in->colors[1] = in->depth = in->stencil = base;
   in->colors[0].imageView = r->views[COLOR];
   in->colors[0].resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
   in->colors[0].resolveImageView = r->views[COLOR_RESOLVE];
   in->depth.imageView = in->stencil.imageView = r->views[DS];
   in->depth.resolveImageView = in->stencil.resolveImageView = r->views[DS_RESOLVE];
   in->depth.resolveMode = VK_RESOLVE_MODE_MIN_BIT;
   in->stencil.resolveMode = VK_RESOLVE_MODE_MAX_BIT;
   in->stencil.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
   in->ri = (VkRenderingInfo){
       .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
       .flags = flags,
       .renderArea = {{4, 4}, {16, 8}},
       .layerCount = 1,
       .colorAttachmentCount = 2,
       .pColorAttachments = in->colors,
       .pDepthAttachment = &in->depth,
       .pStencilAttachment = &in->stencil,
   };
}

static const struct vkppu_gfx_cmd_state *state(VkCommandBuffer cmd)
{
   return &vkppu_command_buffer_from_handle(cmd)->gfx;
}

TEST_CASE(begin_rendering_makes_attachments_views_and_resolves)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   VkCommandBuffer cmd = begin_cmd(&r, VK_COMMAND_BUFFER_LEVEL_PRIMARY, &bi);
   struct info in;
   info_init(&r, &in, 0);
   vkppu_CmdBeginRendering(cmd, &in.ri);
   memset(&in, 0xcd, sizeof(in)); /* nothing may point into it */
   const struct vkppu_gfx_cmd_state *s = state(cmd);
   REQUIRE(s->pass && s->framebuffer && s->pass->subpass_count == 1);
   CHECK(!s->targets_inherited);
   CHECK(s->render_area.offset.x == 4 && s->render_area.extent.height == 8);
   /* Colours 0 and 1, depth/stencil, then the two resolves. */
   REQUIRE(s->pass->attachment_count == 5 && s->framebuffer->attachment_count == 5);
   const struct vkppu_render_pass_attachment *att = s->pass->attachments;
   struct vkppu_image_view *const *views = s->framebuffer->attachments;
   CHECK(views[0] == vkppu_image_view_from_handle(r.views[COLOR]));
   CHECK(views[1] == NULL);
   CHECK(views[2] == vkppu_image_view_from_handle(r.views[DS]));
   CHECK(views[3] == vkppu_image_view_from_handle(r.views[COLOR_RESOLVE]));
   CHECK(views[4] == vkppu_image_view_from_handle(r.views[DS_RESOLVE]));
   CHECK(att[0].format == VK_FORMAT_R8G8B8A8_UNORM &&
         att[0].load_op == VK_ATTACHMENT_LOAD_OP_CLEAR);
   CHECK(att[2].format == VK_FORMAT_D32_SFLOAT_S8_UINT);
   CHECK(att[2].load_op == VK_ATTACHMENT_LOAD_OP_CLEAR &&
         att[2].stencil_load_op == VK_ATTACHMENT_LOAD_OP_LOAD);
   CHECK(s->framebuffer->width == 20 && s->framebuffer->height == 12 &&
         s->framebuffer->layers == 1);
   const struct vkppu_subpass *sp = &s->pass->subpasses[0];
   REQUIRE(sp->color_count == 2 && sp->resolves);
   CHECK(sp->colors[0].attachment == 0 && sp->colors[1].attachment == VK_ATTACHMENT_UNUSED);
   CHECK(sp->resolves[0].attachment == 3 &&
         sp->resolves[0].resolve_mode == VK_RESOLVE_MODE_AVERAGE_BIT);
   CHECK(sp->resolves[1].attachment == VK_ATTACHMENT_UNUSED);
   CHECK(sp->has_depth_stencil && sp->depth_stencil.attachment == 2);
   CHECK(sp->depth_stencil_resolve.attachment == 4);
   CHECK(sp->depth_resolve_mode == VK_RESOLVE_MODE_MIN_BIT &&
         sp->stencil_resolve_mode == VK_RESOLVE_MODE_MAX_BIT);
   vkppu_CmdEndRendering(cmd);
   CHECK(state(cmd)->pass == NULL);

   /* Suspending: nothing is resolved (the resuming instance does it). */
   info_init(&r, &in, VK_RENDERING_SUSPENDING_BIT);
   vkppu_CmdBeginRendering(cmd, &in.ri);
   REQUIRE(s->pass);
   CHECK(s->pass->attachment_count == 3);
   CHECK(s->pass->subpasses[0].resolves == NULL);
   CHECK(s->pass->subpasses[0].depth_stencil_resolve.attachment == VK_ATTACHMENT_UNUSED);
   CHECK(s->pass->subpasses[0].depth_resolve_mode == VK_RESOLVE_MODE_NONE);
   vkppu_CmdEndRendering(cmd);

   /* Resuming: every attachment is loaded, none cleared again. */
   info_init(&r, &in, VK_RENDERING_RESUMING_BIT);
   vkppu_CmdBeginRendering(cmd, &in.ri);
   REQUIRE(s->pass);
   CHECK(s->pass->attachments[0].load_op == VK_ATTACHMENT_LOAD_OP_LOAD);
   CHECK(s->pass->attachments[2].load_op == VK_ATTACHMENT_LOAD_OP_LOAD);
   CHECK(s->pass->subpasses[0].resolves && s->pass->subpasses[0].resolves[0].attachment == 3);
   vkppu_CmdEndRendering(cmd);

   /* A combined format as the depth attachment alone: depth only. */
   info_init(&r, &in, 0);
   in.ri.pStencilAttachment = NULL;
   vkppu_CmdBeginRendering(cmd, &in.ri);
   REQUIRE(s->pass);
   CHECK(s->pass->attachments[2].format == VK_FORMAT_D32_SFLOAT);
   CHECK(s->pass->subpasses[0].stencil_resolve_mode == VK_RESOLVE_MODE_NONE);
   vkppu_CmdEndRendering(cmd);

   /* Errors leave no instance to draw into. */
   info_init(&r, &in, 0);
   in.colors[0].resolveMode = VK_RESOLVE_MODE_MIN_BIT;
   vkppu_CmdBeginRendering(cmd, &in.ri);
   CHECK(s->pass == NULL);
   info_init(&r, &in, 0);
   in.stencil.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
   vkppu_CmdBeginRendering(cmd, &in.ri);
   CHECK(s->pass == NULL);
   info_init(&r, &in, 0);
   in.ri.viewMask = 1u << VKPPU_MAX_MULTIVIEW_VIEW_COUNT; /* beyond maxMultiviewViewCount */
   vkppu_CmdBeginRendering(cmd, &in.ri);
   CHECK(s->pass == NULL);
   info_init(&r, &in, 0);
   in.stencil.imageView = r.views[DS_RESOLVE];
   vkppu_CmdBeginRendering(cmd, &in.ri);
   CHECK(s->pass == NULL);
   CHECK(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   /* Freed with the command buffer (ASan's leak check). */
   vkppu_FreeCommandBuffers(r.device, r.pool, 1, &cmd);
   rig_finish(&r);
}

TEST_CASE(secondaries_inherit_a_pass_of_the_formats)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   const VkFormat colors[2] = {VK_FORMAT_UNDEFINED, VK_FORMAT_R8G8B8A8_UNORM};
   VkCommandBufferInheritanceRenderingInfo inr = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
       .colorAttachmentCount = 2,
       .pColorAttachmentFormats = colors,
       .stencilAttachmentFormat = VK_FORMAT_D24_UNORM_S8_UINT,
       .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
   };
   VkCommandBufferInheritanceInfo inh = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
       .pNext = &inr,
   };
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
                                  .pInheritanceInfo = &inh};
   VkCommandBuffer cmd = begin_cmd(&r, VK_COMMAND_BUFFER_LEVEL_SECONDARY, &bi);
   const struct vkppu_gfx_cmd_state *s = state(cmd);
   REQUIRE(s->pass);
   CHECK(s->targets_inherited && s->framebuffer == NULL);
   const struct vkppu_subpass *sp = &s->pass->subpasses[0];
   REQUIRE(sp->color_count == 2);
   CHECK(sp->colors[0].attachment == VK_ATTACHMENT_UNUSED && sp->colors[1].attachment == 1);
   /* Stencil only. */
   REQUIRE(sp->has_depth_stencil && sp->depth_stencil.attachment == 2);
   CHECK(s->pass->attachments[2].format == VK_FORMAT_S8_UINT);
   /* Reset frees the pass and forgets it. */
   CHECK(vkppu_ResetCommandBuffer(cmd, 0) == VK_SUCCESS);
   CHECK(s->pass == NULL && !s->targets_inherited);
   vkppu_FreeCommandBuffers(r.device, r.pool, 1, &cmd);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
