/* Multiview render passes through the loader with validation on
 * (api.graphics_multiview on vkppu, lvp.graphics_multiview on lavapipe):
 * a subpass with view mask 0b101 on a three-layer colour attachment. The
 * load-op clear, the draw (gl_ViewIndex moves the rectangle and colours
 * it) and vkCmdClearAttachments reach layers 0 and 2; layer 1, outside
 * the mask, keeps what a transfer clear wrote before the pass. Exact
 * pixels. An occlusion query around the draw uses two queries (one per
 * view) whose sum is both views' samples. The same scene again through
 * vkCmdBeginRendering with the view mask. */
#include "graphics_test_util.h"

#define LAYERS 3u
#define VIEW_MASK 0x5u

static const float RED[4] = {1, 0, 0, 1};

static bool setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
       .multiview = VK_TRUE,
   };
   VkPhysicalDeviceDynamicRenderingFeatures dr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
       .pNext = &mv,
       .dynamicRendering = VK_TRUE,
   };
   static const char *const extensions[] = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME,
                                            VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME,
                                            VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME};
   static const VkPhysicalDeviceFeatures precise = {.occlusionQueryPrecise = VK_TRUE};
   struct vkt_device_desc desc = {
       .features = &precise, .feature_chain = &dr, .extensions = extensions, .extension_count = 3};
   return gtu_setup_device(ctx, dev, &desc);
}

static VkRenderPass multiview_pass(struct vkt_device *dev)
{
   const VkAttachmentDescription att = {0,
                                        VK_FORMAT_R8G8B8A8_UNORM,
                                        VK_SAMPLE_COUNT_1_BIT,
                                        VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        VK_ATTACHMENT_STORE_OP_STORE,
                                        VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                        VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
   const VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                    .colorAttachmentCount = 1,
                                    .pColorAttachments = &color};
   const VkSubpassDependency deps[2] = {
       {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
       {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   const uint32_t view_mask = VIEW_MASK;
   const VkRenderPassMultiviewCreateInfo mv = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 1,
       .pViewMasks = &view_mask,
   };
   VkRenderPassCreateInfo rci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = &mv,
       .attachmentCount = 1,
       .pAttachments = &att,
       .subpassCount = 1,
       .pSubpasses = &sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev->device, &rci, NULL, &pass));
   return pass;
}

/* The scene through a multiview render pass, or (dynamic) through
 * vkCmdBeginRendering with the same view mask; with secondary, the draw,
 * its query and the clear are recorded in a secondary command buffer that
 * inherits the view mask. */
static void multiview_scene(bool dynamic, bool secondary)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = LAYERS,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   struct vkt_image img;
   memset(&img, 0, sizeof(img));
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   VkRenderPass pass = dynamic ? VK_NULL_HANDLE : multiview_pass(&dev);
   VkFramebuffer fb = VK_NULL_HANDLE;
   VkPipeline pipe = VK_NULL_HANDLE;
   const VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                      .queryType = VK_QUERY_TYPE_OCCLUSION,
                                      .queryCount = 2};
   VkQueryPool queries = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev.device, &qci, NULL, &queries));
   struct vkt_buffer readback, vb;
   memset(&readback, 0, sizeof(readback));
   if ((pass || dynamic) && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &img) &&
       vkt_buffer_create(&dev, LAYERS * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                         &readback) == VK_SUCCESS) {
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .attachmentCount = 1,
          .pAttachments = &img.view,
          .width = GW,
          .height = GH,
          .layers = 1,
      };
      if (!dynamic)
         VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      const VkPipelineRenderingCreateInfo rci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
          .viewMask = VIEW_MASK,
          .colorAttachmentCount = 1,
          .pColorAttachmentFormats = &format,
      };
      struct gtu_pipeline_desc d = {.vs = "gfx_multiview.vert",
                                    .fs = "gfx_multiview.frag",
                                    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                    .layout = layout,
                                    .pass = pass,
                                    .next = dynamic ? &rci : NULL};
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[6];
      gtu_rect(v, 4, 4, 12, 28, 0.5f, RED);
      if ((fb || dynamic) && pipe &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         /* Every layer white first; the pass must leave layer 1 so. */
         vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                               VK_ACCESS_TRANSFER_WRITE_BIT);
         const VkClearColorValue white = {{1, 1, 1, 1}};
         const VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, LAYERS};
         vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &white, 1,
                              &all);
         vkCmdResetQueryPool(cmd, queries, 0, 2);
         const VkClearValue blue = {.color = {{0, 0, 1, 1}}};
         VkRenderPassBeginInfo bi = {
             .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
             .renderPass = pass,
             .framebuffer = fb,
             .renderArea = {{0, 0}, {GW, GH}},
             .clearValueCount = 1,
             .pClearValues = &blue,
         };
         const VkRenderingAttachmentInfo color = {
             .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
             .imageView = img.view,
             .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
             .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
             .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
             .clearValue = blue,
         };
         const VkRenderingInfo ri = {
             .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
             .flags = secondary ? VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT : 0,
             .renderArea = {{0, 0}, {GW, GH}},
             .viewMask = VIEW_MASK,
             .colorAttachmentCount = 1,
             .pColorAttachments = &color,
         };
         if (dynamic) {
            vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_ACCESS_TRANSFER_WRITE_BIT,
                                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
            vkCmdBeginRenderingKHR(cmd, &ri);
         } else {
            vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         }
         VkCommandBuffer rec = cmd;
         if (secondary) {
            const VkCommandBufferInheritanceRenderingInfo ir = {
                .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
                .viewMask = VIEW_MASK,
                .colorAttachmentCount = 1,
                .pColorAttachmentFormats = &format,
                .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
            const VkCommandBufferInheritanceInfo inh = {
                .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, .pNext = &ir};
            rec = gtu_secondary_begin(&dev, &inh);
         }
         gtu_bind_vertex_buffer(rec, &vb);
         vkCmdBindPipeline(rec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
         vkCmdBeginQuery(rec, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
         vkCmdDraw(rec, 6, 1, 0, 0);
         vkCmdEndQuery(rec, queries, 0);
         const VkClearAttachment ca = {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {{0, 0, 0, 0}}}};
         const VkClearRect rect = {{{28, 0}, {4, 4}}, 0, 1};
         vkCmdClearAttachments(rec, 1, &ca, 1, &rect);
         if (secondary) {
            VKT_CHECK(vkEndCommandBuffer(rec));
            vkCmdExecuteCommands(cmd, 1, &rec);
         }
         if (dynamic) {
            vkCmdEndRenderingKHR(cmd);
            vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_ACCESS_TRANSFER_READ_BIT);
         } else {
            vkCmdEndRenderPass(cmd);
         }
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, LAYERS},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *got = readback.map;
         unsigned bad = 0;
         for (uint32_t layer = 0; layer < LAYERS; layer++) {
            uint32_t want[GW * GH];
            if (layer == 1) {
               gtu_fill(want, 0, 0, GW, GH, gtu_rgba(255, 255, 255, 255));
            } else {
               /* View `layer`: blue, the rectangle 4 * layer pixels right
                * with green 0.5 * layer, the cleared corner. */
               gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 255, 255));
               gtu_fill(want, 4 + 4 * layer, 4, 12 + 4 * layer, 28,
                        gtu_rgba(255, layer ? 255 : 0, 0, 255));
               gtu_fill(want, 28, 0, 32, 4, 0);
            }
            for (uint32_t i = 0; i < GW * GH; i++)
               if (got[layer * GW * GH + i] != want[i] && bad++ < 8)
                  test_fail(__FILE__, __LINE__,
                            "layer %u pixel (%u, %u) is 0x%08x, expected 0x%08x", layer, i % GW,
                            i / GW, got[layer * GW * GH + i], want[i]);
         }
         CHECK_MSG(bad == 0, "%u pixels wrong", bad);
         uint64_t samples[2] = {0, 0};
         VKT_CHECK(vkGetQueryPoolResults(dev.device, queries, 0, 2, sizeof(samples), samples, 8,
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
         CHECK_MSG(samples[0] + samples[1] == 2 * 8 * 24, "the views' queries hold %llu + %llu",
                   (unsigned long long)samples[0], (unsigned long long)samples[1]);
         if (secondary)
            vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &rec);
         vkt_buffer_destroy(&dev, &vb);
      }
   }
   vkDestroyQueryPool(dev.device, queries, NULL);
   vkt_buffer_destroy(&dev, &readback);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyFramebuffer(dev.device, fb, NULL);
   vkt_image_destroy(&dev, &img);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(multiview_draws_clears_and_load_ops_reach_the_views_layers)
{
   multiview_scene(false, false);
}

TEST_CASE(dynamic_rendering_with_a_view_mask)
{
   multiview_scene(true, false);
}

TEST_CASE(dynamic_rendering_with_a_view_mask_in_a_secondary)
{
   multiview_scene(true, true);
}

/* Input attachments in multiview: subpass 0 draws the scene into A (view
 * mask 0b101, the rectangle moved and coloured per view), subpass 1 (same
 * views) reads A with subpassLoad into B with red and blue swapped. Each
 * view must read its own layer: the rectangles of views 0 and 2 differ. */
TEST_CASE(multiview_input_attachments_read_the_views_layer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = LAYERS,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
   };
   struct vkt_image a, b;
   memset(&a, 0, sizeof(a));
   memset(&b, 0, sizeof(b));
   const VkAttachmentDescription att[2] = {
       {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL},
       {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
   };
   const VkAttachmentReference a_out = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference a_in = {0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   const VkAttachmentReference b_out = {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkSubpassDescription sp[2] = {
       {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &a_out},
       {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .inputAttachmentCount = 1,
        .pInputAttachments = &a_in,
        .colorAttachmentCount = 1,
        .pColorAttachments = &b_out},
   };
   const VkSubpassDependency deps[2] = {
       {0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
        VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_VIEW_LOCAL_BIT},
       {1, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   const uint32_t masks[2] = {VIEW_MASK, VIEW_MASK};
   const VkRenderPassMultiviewCreateInfo mv = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 2,
       .pViewMasks = masks,
   };
   VkRenderPassCreateInfo rpci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = &mv,
       .attachmentCount = 2,
       .pAttachments = att,
       .subpassCount = 2,
       .pSubpasses = sp,
       .dependencyCount = 2,
       .pDependencies = deps,
   };
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &rpci, NULL, &pass));
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
                                                 VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
   const VkDescriptorSetLayoutCreateInfo dslci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 1,
       .pBindings = &binding};
   VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorSetLayout(dev.device, &dslci, NULL, &dsl));
   const VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                            .setLayoutCount = 1,
                                            .pSetLayouts = &dsl};
   VkPipelineLayout layout = VK_NULL_HANDLE, empty = gtu_empty_layout(&dev);
   VKT_CHECK(vkCreatePipelineLayout(dev.device, &plci, NULL, &layout));
   const VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
   const VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                            .maxSets = 1,
                                            .poolSizeCount = 1,
                                            .pPoolSizes = &ps};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev.device, &dpci, NULL, &pool));
   VkFramebuffer fb = VK_NULL_HANDLE;
   VkPipeline p[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   struct vkt_buffer readback, vb;
   memset(&readback, 0, sizeof(readback));
   ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
   bool ok =
       pass && layout && pool && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &a);
   ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   ok = ok && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &b) &&
        vkt_buffer_create(&dev, LAYERS * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                          &readback) == VK_SUCCESS;
   if (ok) {
      const VkImageView views[2] = {a.view, b.view};
      const VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                           .renderPass = pass,
                                           .attachmentCount = 2,
                                           .pAttachments = views,
                                           .width = GW,
                                           .height = GH,
                                           .layers = 1};
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      struct gtu_pipeline_desc d0 = {.vs = "gfx_multiview.vert",
                                     .fs = "gfx_multiview.frag",
                                     .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .layout = empty,
                                     .pass = pass,
                                     .subpass = 0};
      struct gtu_pipeline_desc d1 = {.fs = "gfx_input_swap.frag",
                                     .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                                     .layout = layout,
                                     .pass = pass,
                                     .subpass = 1};
      VKT_CHECK(gtu_pipeline(&dev, &d0, &p[0]));
      VKT_CHECK(gtu_pipeline(&dev, &d1, &p[1]));
      const VkDescriptorSetAllocateInfo dsai = {.sType =
                                                    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                                .descriptorPool = pool,
                                                .descriptorSetCount = 1,
                                                .pSetLayouts = &dsl};
      VkDescriptorSet set = VK_NULL_HANDLE;
      VKT_CHECK(vkAllocateDescriptorSets(dev.device, &dsai, &set));
      const VkDescriptorImageInfo ii = {VK_NULL_HANDLE, a.view,
                                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      const VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = set,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
                                      .pImageInfo = &ii};
      if (set)
         vkUpdateDescriptorSets(dev.device, 1, &w, 0, NULL);
      struct gvertex v[12];
      gtu_rect(&v[0], 4, 4, 12, 28, 0.5f, RED);
      gtu_rect(&v[6], 0, 0, GW, GH, 0.5f, RED);
      if (fb && p[0] && p[1] && set &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         const VkClearValue clear[2] = {{.color = {{0, 0, 1, 1}}}, {.color = {{0, 0, 0, 0}}}};
         const VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                           .renderPass = pass,
                                           .framebuffer = fb,
                                           .renderArea = {{0, 0}, {GW, GH}},
                                           .clearValueCount = 2,
                                           .pClearValues = clear};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[0]);
         vkCmdDraw(cmd, 6, 1, 0, 0);
         vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p[1]);
         /* Bound again: the validation layer forgets vertex bindings at
          * vkCmdNextSubpass of a multiview pass (they persist in Vulkan). */
         gtu_bind_vertex_buffer(cmd, &vb);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
         vkCmdDraw(cmd, 6, 1, 6, 0);
         vkCmdEndRenderPass(cmd);
         const VkBufferImageCopy region = {
             .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, LAYERS},
             .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer,
                                1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *got = readback.map;
         unsigned bad = 0;
         for (uint32_t layer = 0; layer < LAYERS; layer += 2) {
            /* A's view `layer` with red and blue swapped: red background,
             * the rectangle blue (and green for view 2). */
            uint32_t want[GW * GH];
            gtu_fill(want, 0, 0, GW, GH, gtu_rgba(255, 0, 0, 255));
            gtu_fill(want, 4 + 4 * layer, 4, 12 + 4 * layer, 28,
                     gtu_rgba(0, layer ? 255 : 0, 255, 255));
            for (uint32_t i = 0; i < GW * GH; i++)
               if (got[layer * GW * GH + i] != want[i] && bad++ < 8)
                  test_fail(__FILE__, __LINE__,
                            "layer %u pixel (%u, %u) is 0x%08x, expected 0x%08x", layer, i % GW,
                            i / GW, got[layer * GW * GH + i], want[i]);
         }
         CHECK_MSG(bad == 0, "%u pixels wrong", bad);
         vkt_buffer_destroy(&dev, &vb);
      }
   }
   vkt_buffer_destroy(&dev, &readback);
   vkDestroyPipeline(dev.device, p[0], NULL);
   vkDestroyPipeline(dev.device, p[1], NULL);
   vkDestroyFramebuffer(dev.device, fb, NULL);
   vkt_image_destroy(&dev, &a);
   vkt_image_destroy(&dev, &b);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyPipelineLayout(dev.device, empty, NULL);
   vkDestroyDescriptorSetLayout(dev.device, dsl, NULL);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Subpasses with view masks 1 and 2: the load op clears each view's layer
 * where a subpass first renders that view, so layer 1 is cleared too
 * though the first subpass renders only view 0 (the layers start red). */
TEST_CASE(each_view_is_loaded_where_a_subpass_first_renders_it)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!setup(&ctx, &dev))
      return;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {GW, GH, 1},
       .mipLevels = 1,
       .arrayLayers = 2,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   const VkAttachmentDescription att = {0,
                                        VK_FORMAT_R8G8B8A8_UNORM,
                                        VK_SAMPLE_COUNT_1_BIT,
                                        VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        VK_ATTACHMENT_STORE_OP_STORE,
                                        VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                        VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
   const VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkSubpassDescription sp[2] = {{.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                        .colorAttachmentCount = 1,
                                        .pColorAttachments = &color},
                                       {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                        .colorAttachmentCount = 1,
                                        .pColorAttachments = &color}};
   const VkSubpassDependency deps[3] = {
       {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
       {0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
       {1, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_TRANSFER_READ_BIT, 0},
   };
   const uint32_t view_masks[2] = {1, 2};
   const VkRenderPassMultiviewCreateInfo mv = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 2,
       .pViewMasks = view_masks,
   };
   VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .pNext = &mv,
                                  .attachmentCount = 1,
                                  .pAttachments = &att,
                                  .subpassCount = 2,
                                  .pSubpasses = sp,
                                  .dependencyCount = 3,
                                  .pDependencies = deps};
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &rpci, NULL, &pass));
   struct vkt_image img;
   struct vkt_buffer readback;
   if (pass && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &img)) {
      if (vkt_buffer_create(&dev, 2 * GW * GH * 4, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                            &readback) == VK_SUCCESS) {
         VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                        .renderPass = pass,
                                        .attachmentCount = 1,
                                        .pAttachments = &img.view,
                                        .width = GW,
                                        .height = GH,
                                        .layers = 1};
         VkFramebuffer fb = VK_NULL_HANDLE;
         VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                               VK_ACCESS_TRANSFER_WRITE_BIT);
         const VkClearColorValue red = {{1, 0, 0, 1}};
         const VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2};
         vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &red, 1, &all);
         VkClearValue green = {.color = {{0, 1, 0, 1}}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = pass,
                                     .framebuffer = fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 1,
                                     .pClearValues = &green};
         vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdEndRenderPass(cmd);
         VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2},
                                     .imageExtent = {GW, GH, 1}};
         vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                readback.buffer, 1, &region);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *px = readback.map;
         unsigned wrong[2] = {0, 0};
         for (unsigned i = 0; i < 2 * GW * GH; i++)
            wrong[i / (GW * GH)] += px[i] != gtu_rgba(0, 255, 0, 255);
         CHECK_MSG(wrong[0] == 0 && wrong[1] == 0, "pixels not cleared: layer 0 %u, layer 1 %u",
                   wrong[0], wrong[1]);
         vkDestroyFramebuffer(dev.device, fb, NULL);
         vkt_buffer_destroy(&dev, &readback);
      }
      vkt_image_destroy(&dev, &img);
   }
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
